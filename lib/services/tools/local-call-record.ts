/**
 * The call record of a call that ran in-process (a code tool, a system tool, or a refusal
 * before anything was built): nothing was sent anywhere, so no request and no HTTP status.
 */
import type { ToolCallRequest } from "@/lib/engine/ports";

const MAX_RESULT_CHARS = 8 * 1024;

export function localCallRecord(
  request: ToolCallRequest,
  kind: "code" | "data" | "system",
  ok: boolean,
  error?: string,
  started = Date.now(),
) {
  return {
    call_id: request.callId,
    tool: request.tool,
    kind,
    arguments: request.arguments,
    request: null,
    status: null,
    ok,
    duration_ms: Date.now() - started,
    result: null,
    ...(error === undefined ? {} : { error }),
  };
}

/** Clips a result for the record (the model still gets all of it). */
export function clipResult(text: string): string {
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;
}
