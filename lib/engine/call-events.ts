/** The engine events that announce a tool call and its result (the trace shows both). */
import type { EngineEvent, ModelToolCall, ToolOutcome } from "./ports";

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

/** The `tool_result` event of a finished call: its result (parsed when it is JSON) or error, and its timings. */
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
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
