/** The engine events that announce a tool call and its result (the trace shows both). */
import { jsonNestingDepth } from "./json-nesting-depth";
import type { EngineEvent, ModelToolCall, ToolOutcome } from "./ports";

/**
 * A result nested deeper than this is kept in the trace as its text: parsed, it would overflow
 * the stack of whatever serializes the event (the recorder, the live feed). Far deeper than any
 * real API answer, far shallower than where JSON.stringify gives up (a few thousand levels).
 */
export const MAX_TRACED_RESULT_DEPTH = 256;

/** The `tool_call` event announcing a call (again, `replayed`, on resume). */
export function callEvent(call: ModelToolCall, args: unknown, replayed = false): EngineEvent {
  return {
    type: "tool_call",
    call_id: call.id,
    tool: call.name,
    arguments: args,
    ...(replayed ? { replayed: true as const } : {}),
  };
}

/**
 * The `tool_result` event of a finished call: its result (parsed when it is JSON nested at most
 * MAX_TRACED_RESULT_DEPTH levels, else the text) or error, and its timings.
 */
export function toolResultEvent(
  call: ModelToolCall,
  outcome: ToolOutcome,
  timing: { durationMs: number; queuedMs: number },
  flags: { halted: boolean; replayed: boolean },
): EngineEvent {
  return {
    type: "tool_result",
    call_id: call.id,
    tool: call.name,
    ok: outcome.ok,
    ...(outcome.ok ? { result: parseJson(outcome.content) } : { error: outcome.error }),
    duration_ms: timing.durationMs,
    queued_ms: timing.queuedMs,
    ...(flags.halted ? { halted: true } : {}),
    ...(outcome.record !== undefined ? { record: outcome.record } : {}),
    ...(flags.replayed ? { replayed: true as const } : {}),
  };
}

function parseJson(text: string): unknown {
  if (jsonNestingDepth(text) > MAX_TRACED_RESULT_DEPTH) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
