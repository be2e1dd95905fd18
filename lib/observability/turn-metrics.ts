/**
 * The metrics side of observing a turn: each engine event of a run moves the counters and
 * histograms of insika-metrics.ts (calls by tool, kind and outcome; egress blocks by rule;
 * call latency and queue wait; the run's outcome and duration by agent).
 *
 * A call's `tool` label is its name only when that name is a tool the operator defined (or a
 * system tool): the name comes from the model, and every distinct label value is a series kept
 * for the life of the process, so a name the model made up is counted as UNKNOWN_TOOL_LABEL (tool-label.ts).
 */
import type { EngineEvent } from "@/lib/engine/ports";
import { callOutcome, egressOf, kindOf } from "./call-outcome";
import type { InsikaMetrics } from "./insika-metrics";
import { toolLabel } from "./tool-label";

export class TurnMetrics {
  readonly #rejected = new Set<string>();
  readonly #startedAt: number;

  constructor(
    private readonly metrics: InsikaMetrics,
    private readonly agentId: string,
    /** Whether a name is a tool of the catalog or a system tool (a bounded, operator-defined set). */
    private readonly isKnownTool: (name: string) => boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.#startedAt = now();
  }

  event(event: EngineEvent): void {
    switch (event.type) {
      case "approval_resolved":
        if (event.decision === "rejected") this.#rejected.add(event.call_id);
        return;
      case "tool_result": {
        // A result replayed on resume was counted by the run that made the call.
        if (event.replayed) return;
        const outcome = callOutcome({
          ok: event.ok,
          halted: event.halted,
          record: event.record,
          rejected: this.#rejected.has(event.call_id),
        });
        const tool = toolLabel(event.tool, this.isKnownTool);
        this.metrics.toolCalls.inc({ tool, kind: kindOf(event.record), outcome });
        const egress = egressOf(event.record);
        if (egress?.verdict === "blocked") this.metrics.egressBlocks.inc({ rule: egress.rule });
        if (outcome !== "rejected") {
          this.metrics.callDuration.observe({ tool }, Math.max(0, event.duration_ms) / 1000);
          this.metrics.queueWait.observe(Math.max(0, event.queued_ms) / 1000);
        }
        return;
      }
      case "turn_completed":
      case "turn_halted":
      case "turn_waiting":
      case "turn_failed":
        this.metrics.turns.inc({ agent: this.agentId, outcome: event.type.slice("turn_".length) });
        this.metrics.turnDuration.observe({ agent: this.agentId }, Math.max(0, this.now() - this.#startedAt) / 1000);
        return;
      default:
        return;
    }
  }
}
