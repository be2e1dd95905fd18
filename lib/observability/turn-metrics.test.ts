import { describe, expect, it } from "vitest";
import { insikaMetrics } from "./insika-metrics";
import { UNKNOWN_TOOL_LABEL } from "./tool-label";
import { TurnMetrics } from "./turn-metrics";

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await insikaMetrics().registry.getSingleMetric(name)!.get();
  const hit = metric.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return hit?.value ?? 0;
}

describe("TurnMetrics", () => {
  it("counts calls by tool, kind and outcome, blocks by rule, and the run's end", async () => {
    const m = new TurnMetrics(
      insikaMetrics(),
      "support",
      (name) => name === "lookup",
      () => 0,
    );
    const base = { tool: "lookup", duration_ms: 5, queued_ms: 0 };
    m.event({ type: "tool_result", call_id: "a", ok: true, ...base, record: { kind: "mcp" } });
    m.event({
      type: "tool_result",
      call_id: "b",
      ok: false,
      ...base,
      record: { kind: "data", egress: { verdict: "blocked", rule: "metadata-host" } },
    });
    m.event({ type: "approval_resolved", approval_id: "x", call_id: "c", decision: "rejected" });
    m.event({ type: "tool_result", call_id: "c", ok: false, ...base });
    // A replayed result was counted by the run that made the call.
    m.event({ type: "tool_result", call_id: "a", ok: true, ...base, replayed: true });
    m.event({ type: "turn_completed", content: "done" });
    expect(await value("insika_tool_calls_total", { tool: "lookup", kind: "mcp", outcome: "ok" })).toBe(1);
    expect(await value("insika_tool_calls_total", { tool: "lookup", kind: "data", outcome: "blocked" })).toBe(1);
    expect(await value("insika_tool_calls_total", { tool: "lookup", kind: "unknown", outcome: "rejected" })).toBe(1);
    expect(await value("insika_turns_total", { agent: "support", outcome: "completed" })).toBe(1);
    expect(await value("insika_egress_blocks_total", { rule: "metadata-host" })).toBe(1);
  });

  it("labels a call whose name is no tool as one unknown tool, so made-up names add no series", async () => {
    const metrics = insikaMetrics();
    // The distinct values of the `tool` label a metric holds.
    const seriesOf = async (name: string) =>
      new Set((await metrics.registry.getSingleMetric(name)!.get()).values.map((v) => v.labels.tool)).size;
    const callsBefore = await seriesOf("insika_tool_calls_total");
    const durationsBefore = await seriesOf("insika_tool_call_duration_seconds");
    const m = new TurnMetrics(
      metrics,
      "support",
      (name) => name === "lookup",
      () => 0,
    );
    // What a hostile model can send: a new, long name on every call (refused as unknown tools).
    for (let i = 0; i < 500; i += 1) {
      const tool = `made_up_${i}_${"x".repeat(1000)}`;
      m.event({
        type: "tool_result",
        call_id: `c${i}`,
        tool,
        ok: false,
        error: `unknown tool: ${tool}`,
        duration_ms: 0,
        queued_ms: 0,
      });
    }
    // At most one new label value (the unknown one), however many names came.
    expect((await seriesOf("insika_tool_calls_total")) - callsBefore).toBeLessThanOrEqual(1);
    expect(
      await value("insika_tool_calls_total", { tool: UNKNOWN_TOOL_LABEL, kind: "unknown", outcome: "error" }),
    ).toBe(500);
    expect((await seriesOf("insika_tool_call_duration_seconds")) - durationsBefore).toBeLessThanOrEqual(1);
    expect((await metrics.registry.metrics()).includes("made_up_")).toBe(false);
  });
});
