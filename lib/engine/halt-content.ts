import type { HaltVerdict } from "./ports";

/**
 * What a halted turn publishes (spec: halt_when, say). `leadIn` is the text of the step
 * whose call halted, i.e. the last assistant message; it wins whenever it is not blank,
 * because two messages for one answer is what halt_when exists to prevent. Otherwise the
 * `say` of the first halting call in call order, and "" when that call has none (a halt
 * without lead-in or say completes empty, which a channel consumer drops).
 *
 * Why the step's text and not all text of the turn: earlier steps introduced earlier calls
 * (and already reached a streaming client); the lead-in is what introduced this one. It also
 * keeps `content` meaning one thing for every status: the text of the last assistant message.
 */
export function haltContent(leadIn: string, halts: readonly HaltVerdict[]): string {
  if (leadIn.trim() !== "") return leadIn;
  return halts[0]?.say ?? "";
}
