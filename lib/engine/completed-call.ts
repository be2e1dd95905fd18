import type { CompletedCall, ToolOutcome } from "./ports";

/** The identifying half of a completed call. */
export type CallPlace = Pick<CompletedCall, "identity" | "step" | "position" | "callId" | "tool">;

/** The journal entry for a call whose outcome is final. */
export function completedCall(place: CallPlace, outcome: ToolOutcome): CompletedCall {
  const call: CompletedCall = { ...place, ok: outcome.ok, content: outcome.content };
  if (!outcome.ok) call.error = outcome.error;
  if (outcome.ok && outcome.halt) call.halt = outcome.halt;
  if (outcome.ok && outcome.promote?.length) call.promote = outcome.promote;
  return call;
}

/** The outcome a reused call gives again: the same content, halt and promotions, no record. */
export function reusedOutcome(call: CompletedCall): ToolOutcome {
  if (!call.ok) return { ok: false, content: call.content, error: call.error ?? "tool call failed" };
  const outcome: ToolOutcome = { ok: true, content: call.content };
  if (call.halt) outcome.halt = call.halt;
  if (call.promote) outcome.promote = call.promote;
  return outcome;
}
