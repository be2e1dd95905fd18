import { describe, expect, it } from "vitest";
import type { EngineEvent, EventSink, Model } from "@/lib/engine/ports";
import { insikaMetrics } from "./insika-metrics";
import { observeTurn } from "./observe-turn";

const model: Model = { id: "m", stream: async function* () {} };
const agent = { id: "observed", name: "Observed", model: { provider: "demo", model: "demo" } };
const isKnownTool = (name: string) => name === "x";

describe("observeTurn (export off: no OTEL endpoint in the test environment)", () => {
  it("hands every event to the sink and returns the sink's own promise; the model is left as is", async () => {
    const seen: EngineEvent[] = [];
    let settle: () => void = () => undefined;
    const sink: EventSink = {
      emit: (event) => {
        seen.push(event);
        return new Promise<void>((resolve) => (settle = resolve));
      },
    };
    const observed = observeTurn({ turnId: "t", sessionId: "s", agent, model, sink, isKnownTool });
    expect(observed.model).toBe(model);
    const pending = observed.sink.emit({ type: "turn_started", turn_id: "t" });
    expect(seen).toEqual([{ type: "turn_started", turn_id: "t" }]);
    let done = false;
    void Promise.resolve(pending).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    settle();
    await pending;
    expect(done).toBe(true);
  });

  it("counts the run in the metrics, and an event the metrics cannot read still reaches the sink", async () => {
    const seen: string[] = [];
    const observed = observeTurn({
      turnId: "t",
      sessionId: "s",
      agent,
      model,
      sink: { emit: (e) => void seen.push(e.type) },
      isKnownTool,
    });
    // A malformed event (durations missing) must not stop the sink from getting it.
    await observed.sink.emit({ type: "tool_result", call_id: "c", tool: "x", ok: true } as unknown as EngineEvent);
    await observed.sink.emit({ type: "turn_failed", error: "boom", code: "internal_error", fault: "system" });
    expect(seen).toEqual(["tool_result", "turn_failed"]);
    const turns = await insikaMetrics().registry.getSingleMetric("insika_turns_total")!.get();
    expect(turns.values.find((v) => v.labels.agent === "observed" && v.labels.outcome === "failed")?.value).toBe(1);
  });
});
