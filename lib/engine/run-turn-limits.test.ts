import { describe, expect, it } from "vitest";
import { scriptedModel, text, toolCall, type ScriptedPart } from "@/lib/providers/scripted";
import type { ModelMessage } from "./ports";
import { runTurn } from "./run-turn";
import { MAX_TOOL_CALLS_PER_STEP } from "./turn-limits";
import {
  fakeExecutor,
  okOutcome,
  recordingSink,
  sleep,
  terminalEvents,
  toolSpec,
  turnInput,
  type TurnInputOverrides,
} from "./test-support";

const input = (overrides: TurnInputOverrides) =>
  turnInput({ tools: [toolSpec("lookup"), toolSpec("tool_search")], ...overrides });

const calls = (n: number, prefix = "c"): ScriptedPart[] =>
  Array.from({ length: n }, (_, i) => toolCall("lookup", { i }, { id: `${prefix}${i}` }));

const toolContents = (messages: ModelMessage[]) =>
  messages.flatMap((message) => (message.role === "tool" ? [`${message.callId}=${message.content}`] : []));

describe("max_tool_calls, serial", () => {
  it("is exact across steps: the call after the limit trips it and nothing more runs", async () => {
    const executor = fakeExecutor();
    const sink = recordingSink();
    const model = scriptedModel([calls(2, "a"), calls(2, "b"), [text("never")]]);
    const result = await runTurn(input({ model, executor, sink, limits: { max_tool_calls: 3 } }));
    expect(executor.calls.map((call) => call.callId)).toEqual(["a0", "a1", "b0"]);
    expect(result).toMatchObject({ status: "failed", error: "tool call limit exceeded (3)" });
    expect(sink.ofType("tool_result").at(-1)).toMatchObject({
      call_id: "b1",
      ok: false,
      error: "tool call limit exceeded (3)",
    });
    expect(model.requests).toHaveLength(2);
    expect(terminalEvents(sink)).toEqual([
      { type: "turn_failed", error: "tool call limit exceeded (3)", code: "tool_call_limit", fault: "limit" },
    ]);
  });

  it("stops the batch at the tripping call and closes out the rest as not run", async () => {
    const executor = fakeExecutor();
    const sink = recordingSink();
    const result = await runTurn(
      input({ model: scriptedModel([calls(5)]), executor, sink, limits: { max_tool_calls: 2 } }),
    );
    expect(executor.calls).toHaveLength(2);
    expect(sink.ofType("tool_call").map((event) => event.call_id)).toEqual(["c0", "c1", "c2"]);
    expect(toolContents(result.messages).slice(2)).toEqual([
      'c2={"error":"tool call limit exceeded (2)"}',
      'c3={"error":"not run: tool call limit exceeded (2)"}',
      'c4={"error":"not run: tool call limit exceeded (2)"}',
    ]);
  });

  it("defaults to 50", async () => {
    const executor = fakeExecutor();
    const result = await runTurn(input({ model: scriptedModel([calls(51)]), executor }));
    expect(executor.calls).toHaveLength(50);
    expect(result.error).toBe("tool call limit exceeded (50)");
  });

  it("counts system tools too: a model looping on them hits the limit", async () => {
    const executor = fakeExecutor();
    const model = scriptedModel([[toolCall("tool_search"), toolCall("tool_search"), toolCall("lookup")], [text("ok")]]);
    const result = await runTurn(input({ model, executor, limits: { max_tool_calls: 1 } }));
    expect(result).toMatchObject({ status: "failed", error: "tool call limit exceeded (1)" });
    expect(executor.calls.map((call) => call.tool)).toEqual(["tool_search"]);
  });

  it("counts spawn_subagent calls across steps", async () => {
    const executor = fakeExecutor();
    const spawn = (i: number) => [toolCall("spawn_subagent", { agent: "x", message: String(i) }, { id: `s${i}` })];
    const model = scriptedModel([spawn(0), spawn(1), spawn(2), [text("never")]]);
    const result = await runTurn(
      input({ model, executor, tools: [toolSpec("spawn_subagent")], limits: { max_tool_calls: 2 } }),
    );
    expect(result).toMatchObject({ status: "failed", error: "tool call limit exceeded (2)" });
    expect(executor.calls).toHaveLength(2);
  });
});

describe("max_tool_calls, parallel (approximate boundary: the batch finishes, then the turn fails)", () => {
  it("cap 4: the tripping calls do not stop their siblings; the whole batch finishes", async () => {
    const executor = fakeExecutor(async (request) => {
      await sleep(20);
      return okOutcome(request.callId);
    });
    const sink = recordingSink();
    const model = scriptedModel([calls(7), [text("never")]]);
    const result = await runTurn(input({ model, executor, sink, limits: { max_tool_calls: 4, tool_concurrency: 3 } }));

    expect(result).toMatchObject({ status: "failed", error: "tool call limit exceeded (4)" });
    // How many ran: never more than the cap plus (concurrency - 1), the spec's bound; this
    // engine counts a call when it is asked for, so exactly the cap.
    expect(executor.calls.length).toBeLessThanOrEqual(4 + 3 - 1);
    expect(executor.calls.map((call) => call.callId)).toEqual(["c0", "c1", "c2", "c3"]);
    expect(executor.finished).toHaveLength(4);
    // Every call of the batch got a result; the three over the cap got the limit error.
    const results = sink.ofType("tool_result");
    expect(results).toHaveLength(7);
    expect(
      results
        .filter((event) => !event.ok)
        .map((event) => event.call_id)
        .sort(),
    ).toEqual(["c4", "c5", "c6"]);
    // The tripping calls were refused before the siblings finished, which still finished.
    const trippedAt = results.findIndex((event) => !event.ok);
    expect(results.slice(trippedAt).some((event) => event.ok)).toBe(true);
    expect(toolContents(result.messages)).toHaveLength(7);
    expect(model.requests).toHaveLength(1);
    expect(terminalEvents(sink)).toHaveLength(1);
  });

  it("counts across steps of the turn", async () => {
    const executor = fakeExecutor(async () => (await sleep(5), okOutcome(1)));
    const model = scriptedModel([calls(3, "a"), calls(3, "b"), [text("never")]]);
    const result = await runTurn(input({ model, executor, limits: { max_tool_calls: 4, tool_concurrency: 3 } }));
    expect(executor.calls.map((call) => call.callId)).toEqual(["a0", "a1", "a2", "b0"]);
    expect(result.error).toBe("tool call limit exceeded (4)");
    expect(toolContents(result.messages)).toHaveLength(6);
  });
});

describe("tool_timeout", () => {
  it("gives the model `TimeoutError: tool exceeded Ns`, aborts the call and goes on", async () => {
    let callSignal: AbortSignal | undefined;
    const executor = fakeExecutor(async (request) => {
      callSignal = request.signal;
      await sleep(5_000, request.signal);
      return okOutcome("late");
    });
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("lookup", {}, { id: "slow" })], [text("It timed out.")]]);
    const started = Date.now();
    const result = await runTurn(input({ model, executor, sink, limits: { tool_timeout: 0.05 } }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(callSignal?.aborted).toBe(true);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: "tool",
      callId: "slow",
      tool: "lookup",
      content: '{"error":"TimeoutError: tool exceeded 0.05s"}',
    });
    expect(sink.ofType("tool_result")[0]).toMatchObject({ ok: false, error: "TimeoutError: tool exceeded 0.05s" });
    expect(result).toMatchObject({ status: "completed", content: "It timed out." });
  });

  it("does not wait for an executor that ignores its signal", async () => {
    const executor = fakeExecutor(() => new Promise(() => undefined));
    const model = scriptedModel([[toolCall("lookup")], [text("ok")]]);
    const result = await runTurn(input({ model, executor, limits: { tool_timeout: 0.03 } }));
    expect(result.status).toBe("completed");
    expect(toolContents(result.messages)[0]).toContain("TimeoutError: tool exceeded 0.03s");
  });

  it("formats the configured default without a trailing .0", async () => {
    const { timeoutMessage } = await import("./run-tool-call");
    expect(timeoutMessage(60)).toBe("TimeoutError: tool exceeded 60s");
  });
});

describe("turn_timeout", () => {
  it("serial: the deadline lands in the running call, which is aborted", async () => {
    let callSignal: AbortSignal | undefined;
    const executor = fakeExecutor(async (request) => {
      callSignal = request.signal;
      await sleep(5_000, request.signal);
      return okOutcome("late");
    });
    const sink = recordingSink();
    const model = scriptedModel([calls(2), [text("never")]]);
    const started = Date.now();
    const result = await runTurn(input({ model, executor, sink, limits: { turn_timeout: 0.1, tool_timeout: 10 } }));
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ status: "failed", error: "turn timed out after 0.1s" });
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(1_000);
    expect(callSignal?.aborted).toBe(true);
    expect(executor.calls).toHaveLength(1);
    expect(sink.ofType("tool_result")).toEqual([
      expect.objectContaining({ call_id: "c0", ok: false, error: "aborted: turn timed out after 0.1s" }),
    ]);
    expect(toolContents(result.messages)[1]).toBe('c1={"error":"not run: turn timed out after 0.1s"}');
    expect(model.requests).toHaveLength(1);
    expect(terminalEvents(sink)).toHaveLength(1);
  });

  it("parallel: waits for in-flight siblings (bounded by tool_timeout) and starts no queued call", async () => {
    const signals = new Map<string, AbortSignal>();
    const executor = fakeExecutor(async (request) => {
      signals.set(request.callId, request.signal);
      await sleep(request.callId === "c0" ? 250 : 5_000, request.signal);
      return okOutcome("done");
    });
    const sink = recordingSink();
    const model = scriptedModel([calls(3), [text("never")]]);
    const started = Date.now();
    const result = await runTurn(
      input({ model, executor, sink, limits: { tool_concurrency: 2, turn_timeout: 0.1, tool_timeout: 0.4 } }),
    );
    const elapsed = Date.now() - started;

    expect(result).toMatchObject({ status: "failed", error: "turn timed out after 0.1s" });
    // The deadline waited: c0 finished normally after it, c1 ran into its own tool_timeout.
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(100 + 400 + 300);
    expect(sink.ofType("tool_result").map((event) => [event.call_id, event.ok, event.error])).toEqual([
      ["c0", true, undefined],
      ["c1", false, "TimeoutError: tool exceeded 0.4s"],
    ]);
    expect(signals.get("c0")?.aborted).toBe(false);
    expect(executor.calls.map((call) => call.callId)).toEqual(["c0", "c1"]);
    expect(toolContents(result.messages)[2]).toBe('c2={"error":"not run: turn timed out after 0.1s"}');
    expect(model.requests).toHaveLength(1);
    expect(terminalEvents(sink)).toEqual([
      { type: "turn_failed", error: "turn timed out after 0.1s", code: "turn_timeout", fault: "limit" },
    ]);
  });

  it("stops a model that is still streaming", async () => {
    const model = scriptedModel([[text("a"), text("b", 5_000)]]);
    const started = Date.now();
    const result = await runTurn(input({ model, limits: { turn_timeout: 0.05 } }));
    expect(result).toMatchObject({ status: "failed", error: "turn timed out after 0.05s" });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(model.requests[0]?.signal.aborted).toBe(true);
  });
});

describe("tool calls in one step", () => {
  it("a step with more calls than any turn may make fails the turn as a model error, running none", async () => {
    const executor = fakeExecutor();
    const sink = recordingSink();
    const model = scriptedModel([[text("Here goes."), ...calls(MAX_TOOL_CALLS_PER_STEP + 1)], [text("never")]]);
    const result = await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 8 } }));
    const error = `model error: the model asked for more than ${MAX_TOOL_CALLS_PER_STEP} tool calls in one step`;
    expect(result).toMatchObject({ status: "failed", code: "model_error", fault: "model" });
    expect(result.error).toContain(error);
    expect(executor.calls).toHaveLength(0);
    expect(sink.ofType("tool_call")).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
    expect(terminalEvents(sink)).toHaveLength(1);
  });
});
