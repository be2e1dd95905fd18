/** The trace row (tool_calls) of a finished call, from its tool_result event and the record the executor kept. */
import type { insertToolCall } from "@/db/queries/traces";
import type { EngineEvent } from "@/lib/engine/ports";

/** A tool_result event without its type and record. */
export type ToolResultSummary = Omit<Extract<EngineEvent, { type: "tool_result" }>, "type" | "record">;

/**
 * The row: timings in whole milliseconds (the call started `duration_ms` before `at`), and the
 * record with them, with what a replayed result answered (its own record is from the run that
 * made the call).
 */
export function toolCallRow(
  turnId: string,
  summary: ToolResultSummary,
  record: unknown,
  at: number,
): Parameters<typeof insertToolCall>[1] {
  return {
    turnId,
    callId: summary.call_id,
    tool: summary.tool,
    ok: summary.ok,
    startedAt: Math.round(at - summary.duration_ms),
    durationMs: Math.round(summary.duration_ms),
    queuedMs: Math.round(summary.queued_ms),
    record: {
      ...(record as Record<string, unknown> | undefined),
      ...(summary.replayed
        ? { replayed: true, result: summary.result ?? null, ...(summary.error ? { error: summary.error } : {}) }
        : {}),
      duration_ms: Math.round(summary.duration_ms),
      queued_ms: Math.round(summary.queued_ms),
      halted: summary.halted ?? false,
    },
  };
}
