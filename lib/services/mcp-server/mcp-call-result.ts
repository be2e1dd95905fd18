/**
 * A call's outcome as an MCP tools/call result: the JSON text a model would read as the one
 * text content (structuredContent too when it is an object), `isError` for a failed call
 * (validation, egress, tool errors, a rejection — the error text is the content), and a halt
 * (halt_when matched) reflected in `_meta` and a second text naming the verdict.
 */
import { MAX_TRACED_RESULT_DEPTH } from "@/lib/engine/call-events";
import { jsonNestingDepth } from "@/lib/engine/json-nesting-depth";
import type { HaltVerdict } from "@/lib/engine/ports";

/** The `_meta` key of a halted call: `{ reason, say }`. */
export const HALT_META_KEY = "io.insika/halt";
/** The `_meta` key naming the turn that traced the call. */
export const TURN_META_KEY = "io.insika/turn_id";

export interface McpCallResultInput {
  ok: boolean;
  content: string;
  error?: string;
  halt?: HaltVerdict;
  turnId?: string;
}

export interface McpCallResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Builds the result of one call. */
export function mcpCallResult(input: McpCallResultInput): McpCallResult {
  const meta: Record<string, unknown> = {};
  if (input.turnId) meta[TURN_META_KEY] = input.turnId;
  if (!input.ok) {
    return {
      content: [{ type: "text", text: input.error ?? input.content }],
      isError: true,
      ...(input.turnId ? { _meta: meta } : {}),
    };
  }
  const result: McpCallResult = { content: [{ type: "text", text: input.content }] };
  const parsed = parse(input.content);
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
    result.structuredContent = parsed as Record<string, unknown>;
  }
  if (input.halt) {
    meta[HALT_META_KEY] = { reason: input.halt.reason, say: input.halt.say };
    const said = input.halt.say === null ? "" : `; say: ${input.halt.say}`;
    result.content.push({ type: "text", text: `halted: ${input.halt.reason}${said}` });
  }
  if (Object.keys(meta).length > 0) result._meta = meta;
  return result;
}

// Text nested too deeply for the SDK to serialize again stays text only (as in the trace).
function parse(text: string): unknown {
  if (jsonNestingDepth(text) > MAX_TRACED_RESULT_DEPTH) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
