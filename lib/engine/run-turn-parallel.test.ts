import { describe, expect, it } from "vitest";
import { scriptedModel, text, toolCall, type ScriptedPart } from "@/lib/providers/scripted";
import type { Clock } from "./ports";
import { runTurn } from "./run-turn";
import {
  fakeExecutor,
  okOutcome,
  recordingSink,
  sleep,
  toolSpec,
  turnInput,
  type TurnInputOverrides,
} from "./test-support";

const input = (overrides: TurnInputOverrides) =>
  turnInput({ tools: [toolSpec("lookup"), toolSpec("tool_search")], ...overrides });

const batch = (ids: string[]): ScriptedPart[] => ids.map((id) => toolCall("lookup", { id }, { id }));
const delayed = (delays: Record<string, number>) =>
  fakeExecutor(async (request) => {
    await sleep(delays[request.callId] ?? 10, request.signal);
    return okOutcome(request.callId);
  });

describe("tool_concurrency", () => {
  it("1 (default): one call at a time, in call order", async () => {
    const executor = delayed({ a: 30, b: 5, c: 15 });
    const model = scriptedModel([batch(["a", "b", "c"]), [text("ok")]]);
    const result = await runTurn(input({ model, executor }));
    expect(executor.maxInFlight).toBe(1);
    expect(executor.calls.map((call) => call.callId)).toEqual(["a", "b", "c"]);
    expect(result.messages.flatMap((m) => (m.role === "tool" ? [m.callId] : []))).toEqual(["a", "b", "c"]);
  });

  it.each([2, 3, 5])("%i: never more in flight than the cap, and the cap is reached", async (cap) => {
    const ids = Array.from({ length: 9 }, (_, i) => `c${i}`);
    const executor = delayed(Object.fromEntries(ids.map((id, i) => [id, 5 + ((i * 7) % 11)])));
    const model = scriptedModel([batch(ids), [text("ok")]]);
    const result = await runTurn(input({ model, executor, limits: { tool_concurrency: cap } }));
    expect(result.status).toBe("completed");
    expect(executor.maxInFlight).toBe(cap);
    expect(executor.calls).toHaveLength(9);
  });

  it("later steps of the turn run under the same cap", async () => {
    const executor = delayed({});
    const model = scriptedModel([batch(["a", "b", "c"]), batch(["d", "e", "f", "g"]), [text("ok")]]);
    await runTurn(input({ model, executor, limits: { tool_concurrency: 2 } }));
    expect(executor.maxInFlight).toBe(2);
    expect(executor.calls).toHaveLength(7);
  });

  it("records results in completion order, in the transcript and the next request", async () => {
    const executor = delayed({ a: 90, b: 10, c: 45 });
    const sink = recordingSink();
    const model = scriptedModel([batch(["a", "b", "c"]), [text("ok")]]);
    const result = await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 3 } }));
    const order = result.messages.flatMap((m) => (m.role === "tool" ? [m.callId] : []));
    expect(order).toEqual(["b", "c", "a"]);
    expect(sink.ofType("tool_result").map((event) => event.call_id)).toEqual(["b", "c", "a"]);
    expect(model.requests[1]?.messages.flatMap((m) => (m.role === "tool" ? [m.callId] : []))).toEqual(["b", "c", "a"]);
    // The assistant message keeps call order; providers match results by call id.
    const assistant = result.messages[1];
    expect(assistant?.role === "assistant" ? assistant.toolCalls?.map((call) => call.id) : undefined).toEqual([
      "a",
      "b",
      "c",
    ]);
  });

  it("measures queue time and call time separately (exact, with a manual clock)", async () => {
    // Time moves only when a call finishes, by that call's amount, so the numbers are exact.
    let now = 1_000;
    const clock: Clock = { now: () => now };
    const plan: Record<string, { realMs: number; advance: number }> = {
      a: { realMs: 10, advance: 300 },
      b: { realMs: 40, advance: 50 },
      c: { realMs: 1, advance: 20 },
    };
    const executor = fakeExecutor(async (request) => {
      const step = plan[request.callId];
      await sleep(step?.realMs ?? 0);
      now += step?.advance ?? 0;
      return okOutcome(request.callId);
    });
    const sink = recordingSink();
    const model = scriptedModel([batch(["a", "b", "c"]), [text("ok")]]);
    await runTurn(input({ model, executor, sink, clock, limits: { tool_concurrency: 2 } }));
    const results = Object.fromEntries(sink.ofType("tool_result").map((event) => [event.call_id, event]));
    expect(results.a).toMatchObject({ queued_ms: 0, duration_ms: 300 });
    // c waited for a's slot (300), then ran 20; b ran the whole time, others' time included.
    expect(results.c).toMatchObject({ queued_ms: 300, duration_ms: 20 });
    expect(results.b).toMatchObject({ queued_ms: 0, duration_ms: 370 });
  });

  it("serial calls are never queued: each starts when its turn comes", async () => {
    let now = 0;
    const clock: Clock = { now: () => now };
    const executor = fakeExecutor(async (request) => {
      now += request.callId === "a" ? 300 : 50;
      return okOutcome(request.callId);
    });
    const sink = recordingSink();
    await runTurn(input({ model: scriptedModel([batch(["a", "b"]), [text("ok")]]), executor, sink, clock }));
    expect(sink.ofType("tool_result").map((event) => [event.call_id, event.queued_ms, event.duration_ms])).toEqual([
      ["a", 0, 300],
      ["b", 0, 50],
    ]);
  });

  it("queued_ms is the wait for a slot, duration_ms the call alone", async () => {
    const executor = delayed({ a: 60, b: 60, c: 60 });
    const sink = recordingSink();
    const model = scriptedModel([batch(["a", "b", "c"]), [text("ok")]]);
    await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 2 } }));
    const results = Object.fromEntries(sink.ofType("tool_result").map((event) => [event.call_id, event]));
    expect(results.a?.queued_ms).toBeLessThan(20);
    expect(results.b?.queued_ms).toBeLessThan(20);
    expect(results.c?.queued_ms).toBeGreaterThanOrEqual(50);
    for (const id of ["a", "b", "c"]) {
      expect(results[id]?.duration_ms).toBeGreaterThanOrEqual(50);
      expect(results[id]?.duration_ms).toBeLessThan(200);
    }
  });

  it("system tools take no slot: they run while every slot is held", async () => {
    const executor = fakeExecutor(async (request) => {
      await sleep(request.tool === "tool_search" ? 1 : 80);
      return okOutcome(request.tool);
    });
    const sink = recordingSink();
    const model = scriptedModel([[...batch(["a", "b"]), toolCall("tool_search", {}, { id: "s" })], [text("ok")]]);
    await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 2 } }));
    expect(executor.maxInFlight).toBe(3);
    expect(executor.finished[0]).toBe("tool_search");
    const search = sink.ofType("tool_result").find((event) => event.call_id === "s");
    expect(search?.queued_ms).toBeLessThan(20);
  });
});

describe("the turn's signals", () => {
  /** Runs `steps` and returns the MaxListenersExceededWarnings the process emitted meanwhile. */
  async function leakWarnings(steps: ScriptedPart[][], tool_concurrency: number) {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const executor = delayed(Object.fromEntries(steps.flat().map((part) => [("id" in part && part.id) || "", 1])));
      const model = scriptedModel([...steps, [text("ok")]]);
      const result = await runTurn(input({ model, executor, limits: { tool_concurrency, max_tool_calls: 1_000 } }));
      expect(result.status).toBe("completed");
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
      return { warnings: warnings.filter((w) => w.name === "MaxListenersExceededWarning"), executor };
    } finally {
      process.off("warning", onWarning);
    }
  }

  it("keep no listener of a call that ended: 12 batches of 64 calls in parallel, no leak warning", async () => {
    const steps = Array.from({ length: 12 }, (_, step) => batch(Array.from({ length: 64 }, (_, i) => `s${step}c${i}`)));
    const { warnings, executor } = await leakWarnings(steps, 64);
    expect(executor.maxInFlight).toBe(64);
    expect(warnings).toEqual([]);
  });

  it("keep no listener of a batch that ended: 100 steps of one call each, no leak warning", async () => {
    const steps = Array.from({ length: 100 }, (_, step) => batch([`s${step}`]));
    const { warnings } = await leakWarnings(steps, 1);
    expect(warnings).toEqual([]);
  });
});
