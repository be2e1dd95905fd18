import { callIdentity } from "./call-identity";
import { parseToolArguments, type ParsedArguments } from "./parse-tool-arguments";
import type { ModelToolCall, StartedCall } from "./ports";

/** A call of a batch before it runs: where it stands, its arguments and its identity for resume. */
export interface PlannedCall {
  position: number;
  call: ModelToolCall;
  /** Parsed arguments, or the raw text when it did not parse (for events and identity). */
  args: unknown;
  identity: string;
}

/** Plans the call at `position` of step `step`; `parsed` says whether its arguments parsed, and why not. */
export function planCall(
  turnId: string,
  step: number,
  position: number,
  call: ModelToolCall,
): { planned: PlannedCall; parsed: ParsedArguments } {
  const parsed = parseToolArguments(call.arguments);
  const args = parsed.ok ? parsed.value : call.arguments;
  const identity = callIdentity({ turnId, step, position, tool: call.name, arguments: args });
  return { planned: { position, call, args, identity }, parsed };
}

/** The call as the journal records its start (and the approval gate is asked about it, with the turn's id). */
export function startedCall(planned: PlannedCall, step: number): StartedCall {
  const { call, position, identity, args } = planned;
  return { identity, step, position, callId: call.id, tool: call.name, arguments: args };
}
