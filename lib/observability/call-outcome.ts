/**
 * How one tool call ended, in the five words dashboards count by: `ok`, `error` (the tool or
 * its backend failed), `blocked` (the egress guard refused the destination), `halted` (an ok
 * result that ended the turn, halt_when) and `rejected` (an operator refused its approval).
 */
export type CallOutcome = "ok" | "error" | "blocked" | "halted" | "rejected";

/** What a call's outcome is read from: its tool_result event and its call record (either may lack fields). */
export interface CallOutcomeInput {
  ok: boolean;
  halted?: boolean | undefined;
  /** The call record the trace keeps (lib/http-tools/call-record.ts), when the tool wrote one. */
  record?: unknown;
  /** The call's approval was rejected (approval_resolved with decision "rejected"). */
  rejected?: boolean;
}

/** The outcome of a call; a refusal outranks the rest (a rejected call never ran). */
export function callOutcome(input: CallOutcomeInput): CallOutcome {
  if (input.rejected) return "rejected";
  if (egressOf(input.record)?.verdict === "blocked") return "blocked";
  if (!input.ok) return "error";
  return input.halted ? "halted" : "ok";
}

/** The egress part of a call record, if it has one of the right shape. */
export function egressOf(record: unknown): { verdict: string; rule: string } | undefined {
  if (!isObject(record) || !isObject(record.egress)) return undefined;
  const { verdict, rule } = record.egress;
  return typeof verdict === "string" && typeof rule === "string" ? { verdict, rule } : undefined;
}

/**
 * The tool kind a call record names (`data`, `mcp`, `code`, `system`); `unknown` when the call
 * left no record (it never ran: a rejected approval, a timeout, the turn stopping).
 */
export function kindOf(record: unknown): string {
  return isObject(record) && typeof record.kind === "string" ? record.kind : "unknown";
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
