/**
 * What a call is about to send, as the trace records it (kind, arguments, the request with
 * secrets masked), written into the call journal with the call's `started` row. If the
 * process dies while the call is in flight, the resumed turn reports it "outcome unknown"
 * (DESIGN D9) and this is the record its trace row keeps: D11 promises the URL of every call.
 */
import type { StartedCall } from "@/lib/engine/ports";
import { OUTCOME_UNKNOWN } from "@/lib/engine/resume-ledger";
import { buildRequest, maskHeaders, maskUrl, type RecordedRequest } from "@/lib/http-tools";
import { redactValue } from "@/lib/secrets/redact";
import type { SecretSource } from "@/lib/secrets/secret-source";
import { validateArguments } from "@/lib/tools";
import type { TurnContext } from "@/lib/tools/types";
import type { Catalog } from "@/lib/services/tools/catalog";

/** The journaled half of a call record: what was sent, before anything answered. */
export interface SentCallRecord {
  call_id: string;
  tool: string;
  kind: "data" | "mcp" | "code" | "system";
  arguments: unknown;
  /** null when nothing would be sent (an in-process tool, bad arguments, a request that cannot be built). */
  request: RecordedRequest | null;
}

export type CallDescriber = (call: StartedCall) => SentCallRecord;

/**
 * A describer for one turn. It builds the request exactly as the executor will (same
 * definition, arguments, ctx and secrets) but sends nothing; secret header values are
 * `[secret]` and every secret value is redacted from the whole record. Never throws.
 */
export function callDescriber(deps: {
  catalog: Catalog;
  ctx: TurnContext;
  secrets: SecretSource;
  isSystemTool: (name: string) => boolean;
}): CallDescriber {
  return (call) => {
    const base = { call_id: call.callId, tool: call.tool, arguments: call.arguments ?? null };
    if (deps.isSystemTool(call.tool)) return { ...base, kind: "system", request: null };
    const entry = deps.catalog.entries.get(call.tool);
    if (!entry) return { ...base, kind: "data", request: null };
    if (entry.kind === "code") return { ...base, kind: "code", request: null };
    const record: SentCallRecord = { ...base, kind: entry.kind, request: null };
    if (entry.status !== "ok") return record;
    try {
      if (!validateArguments(entry.definition.parameters, call.arguments).ok) return record;
      const built = buildRequest(entry.definition, call.arguments, deps.ctx, deps.secrets);
      if (!built.ok) return redactValue(record, built.secretValues);
      const { method, url, headers } = built.request;
      record.request = {
        method,
        url: maskUrl(url, built.secretValues),
        headers: maskHeaders(headers, built.secretHeaders),
      };
      return redactValue(record, built.secretValues);
    } catch {
      return record; // describing is best effort; the call itself reports its own failure
    }
  };
}

/**
 * The trace record of a call that was in flight when the process died and is reported
 * "outcome unknown": what it sent (from the journal), no status (nothing is known to have
 * answered), and the reason as its error, like any failed call.
 */
export function outcomeUnknownRecord(sent: SentCallRecord) {
  return {
    ...sent,
    status: null,
    ok: false,
    result: JSON.stringify({ error: OUTCOME_UNKNOWN }),
    error: OUTCOME_UNKNOWN,
    outcome_unknown: true,
  };
}
