/**
 * The process's Prometheus metrics (prom-client), served at GET /metrics. One registry per
 * process, kept on globalThis so every bundle of the server counts into the same one. Node's
 * default metrics come along (nodejs_eventloop_lag_seconds is the event loop lag).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** Seconds; from a sub-millisecond code tool to a slow backend at its timeout. */
const CALL_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const TURN_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const FLUSH_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    turns: new Counter({
      name: "insika_turns_total",
      help: "Runs of turns that ended, by agent and outcome (completed, halted, waiting, failed).",
      labelNames: ["agent", "outcome"] as const,
      registers,
    }),
    toolCalls: new Counter({
      name: "insika_tool_calls_total",
      help: "Tool calls that returned, by tool, kind (data, mcp, code, system; unknown: no call record) and outcome (ok, error, blocked, halted, rejected).",
      labelNames: ["tool", "kind", "outcome"] as const,
      registers,
    }),
    egressBlocks: new Counter({
      name: "insika_egress_blocks_total",
      help: "Tool calls the egress guard refused, by rule.",
      labelNames: ["rule"] as const,
      registers,
    }),
    callDuration: new Histogram({
      name: "insika_tool_call_duration_seconds",
      help: "Tool call latency (from send to result), by tool.",
      labelNames: ["tool"] as const,
      buckets: CALL_BUCKETS,
      registers,
    }),
    queueWait: new Histogram({
      name: "insika_tool_call_queue_wait_seconds",
      help: "Time a tool call waited for a concurrency slot (tool_concurrency) before it ran.",
      buckets: CALL_BUCKETS,
      registers,
    }),
    turnDuration: new Histogram({
      name: "insika_turn_duration_seconds",
      help: "Duration of a run of a turn (start or resume to its end or wait), by agent.",
      labelNames: ["agent"] as const,
      buckets: TURN_BUCKETS,
      registers,
    }),
    approvalsPending: new Gauge({
      name: "insika_approvals_pending",
      help: "Approvals waiting for a decision (read from the database at scrape time).",
      registers,
    }),
    flushDuration: new Histogram({
      name: "insika_group_commit_flush_seconds",
      help: "Duration of a group-commit flush (one transaction holding the writes of one tick).",
      buckets: FLUSH_BUCKETS,
      registers,
    }),
    spansDropped: new Counter({
      name: "insika_otel_spans_dropped_total",
      help: "OpenTelemetry spans not delivered, by reason (queue_full, export_failed).",
      labelNames: ["reason"] as const,
      registers,
    }),
  };
}

export type InsikaMetrics = ReturnType<typeof build>;

const SLOT = Symbol.for("insika.metrics");
const globalSlot = globalThis as typeof globalThis & { [SLOT]?: InsikaMetrics };

/** The process's metrics, built on first use. */
export function insikaMetrics(): InsikaMetrics {
  globalSlot[SLOT] ??= build();
  return globalSlot[SLOT];
}

/** Observes one group-commit flush (group-commit.ts); never throws. */
export function observeFlush(seconds: number): void {
  try {
    insikaMetrics().flushDuration.observe(seconds);
  } catch {
    // metrics never fail a write
  }
}
