import { describe, expect, it } from "vitest";
import { scriptedModel, streamError, text, toolCall, usage } from "@/lib/providers/scripted";
import type { Model, ModelMessage, ToolOutcome } from "./ports";
import { runTurn } from "./run-turn";
import {
  fakeExecutor,
  okOutcome,
  recordingSink,
  sleep,
  terminalEvents,
  toolSpec,
  type RecordingSink,
  turnInput,
  type TurnInputOverrides,
  ONE_CALL_TURN_EVENTS,
} from "./test-support";

const input = (overrides: TurnInputOverrides) =>
  turnInput({ userMessage: "hello", ctx: { chat_id: "chat-9" }, ...overrides });

function expectSingleTerminal(sink: RecordingSink, type: string) {
  const terminals = terminalEvents(sink);
  expect(terminals.map((event) => event.type)).toEqual([type]);
  expect(sink.events.at(-1)?.type).toBe(type);
}

describe("runTurn: streaming and the tool loop", () => {
  it("streams text deltas in order and completes with the text", async () => {
    const sink = recordingSink();
    const model = scriptedModel([[text("Hel"), text(""), text("lo "), text("there")]]);
    const result = await runTurn(input({ model, sink }));
    expect(sink.types()).toEqual(["turn_started", "text_delta", "text_delta", "text_delta", "turn_completed"]);
    expect(sink.ofType("text_delta").map((event) => event.text)).toEqual(["Hel", "lo ", "there"]);
    expect(sink.events[0]).toEqual({ type: "turn_started", turn_id: "turn-1" });
    expect(result).toEqual({
      status: "completed",
      content: "Hello there",
      messages: [
        { role: "user", content: "hello" },
        { role: "assistant", content: "Hello there" },
      ],
    });
    expect(sink.ofType("turn_completed")[0]?.content).toBe("Hello there");
  });

  it("sends instructions, history and the user message, and offers the tools", async () => {
    const history: ModelMessage[] = [
      { role: "user", content: "earlier" },
      { role: "assistant", content: "reply" },
    ];
    const model = scriptedModel([[text("ok")]]);
    await runTurn(input({ model, history, instructions: "Be brief.", userMessage: "now" }));
    expect(model.requests[0]?.messages).toEqual([
      { role: "system", content: "Be brief." },
      ...history,
      { role: "user", content: "now" },
    ]);
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(["lookup"]);
  });

  it("runs the calls, feeds results back and asks again until a step makes no call", async () => {
    const sink = recordingSink();
    const executor = fakeExecutor(() => okOutcome({ found: 3 }));
    const model = scriptedModel([
      [text("Let me look."), toolCall("lookup", { q: "shoes" }, { id: "c1" })],
      [text("Found 3.")],
    ]);
    const result = await runTurn(input({ model, sink, executor }));

    expect(executor.calls).toHaveLength(1);
    expect(executor.calls[0]).toMatchObject({
      callId: "c1",
      tool: "lookup",
      arguments: { q: "shoes" },
      ctx: { chat_id: "chat-9" },
    });
    expect(sink.types()).toEqual([...ONE_CALL_TURN_EVENTS]);
    expect(sink.ofType("tool_call")[0]).toEqual({
      type: "tool_call",
      call_id: "c1",
      tool: "lookup",
      arguments: { q: "shoes" },
    });
    expect(sink.ofType("tool_result")[0]).toMatchObject({
      call_id: "c1",
      tool: "lookup",
      ok: true,
      result: { found: 3 },
    });
    const expected: ModelMessage[] = [
      { role: "user", content: "hello" },
      {
        role: "assistant",
        content: "Let me look.",
        toolCalls: [{ id: "c1", name: "lookup", arguments: '{"q":"shoes"}' }],
      },
      { role: "tool", callId: "c1", tool: "lookup", content: '{"found":3}' },
      { role: "assistant", content: "Found 3." },
    ];
    expect(result.messages).toEqual(expected);
    expect(model.requests[1]?.messages).toEqual(expected.slice(0, 3));
    expect(result).toMatchObject({ status: "completed", content: "Found 3." });
    expectSingleTerminal(sink, "turn_completed");
  });

  it("gives the model an error for arguments that are not JSON, without calling the tool", async () => {
    const executor = fakeExecutor();
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("lookup", '{"q": "sh', { id: "bad" })], [text("Sorry.")]]);
    const result = await runTurn(input({ model, executor, sink }));
    expect(executor.calls).toHaveLength(0);
    const tool = result.messages.find((message) => message.role === "tool");
    expect(tool?.content).toMatch(/^\{"error":"arguments are not valid JSON: .+"\}$/);
    expect(sink.ofType("tool_call")[0]?.arguments).toBe('{"q": "sh');
    expect(sink.ofType("tool_result")[0]).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^arguments are not valid JSON: /),
    });
    expect(result.status).toBe("completed");
  });

  it("refuses arguments that are valid JSON but not an object", async () => {
    const executor = fakeExecutor();
    const model = scriptedModel([[toolCall("lookup", "[1,2]")], [text("ok")]]);
    const result = await runTurn(input({ model, executor }));
    expect(executor.calls).toHaveLength(0);
    expect(result.messages[2]).toMatchObject({
      role: "tool",
      content: '{"error":"arguments are not valid JSON: expected an object, got an array"}',
    });
  });

  it("refuses a tool that was not offered, without calling the executor", async () => {
    const executor = fakeExecutor();
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("ghost", { a: 1 }), toolCall("__proto__")], [text("ok")]]);
    const result = await runTurn(input({ model, executor, sink }));
    expect(executor.calls).toHaveLength(0);
    expect(result.messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      '{"error":"unknown tool: ghost"}',
      '{"error":"unknown tool: __proto__"}',
    ]);
    expect(sink.ofType("tool_result").map((event) => event.ok)).toEqual([false, false]);
  });

  it("hands the model every result as JSON text, even when a tool misbehaves", async () => {
    const executor = fakeExecutor((request): ToolOutcome => {
      if (request.tool === "lookup") return { ok: true, content: "plain words" };
      throw new Error("database exploded");
    });
    const model = scriptedModel([[toolCall("lookup"), toolCall("other")], [text("done")]]);
    const result = await runTurn(input({ model, executor, tools: [toolSpec("lookup"), toolSpec("other")] }));
    const contents = result.messages.filter((message) => message.role === "tool").map((message) => message.content);
    expect(contents).toEqual(['"plain words"', '{"error":"tool failed: database exploded"}']);
    for (const content of contents) expect(() => JSON.parse(content)).not.toThrow();
    expect(result.status).toBe("completed");
  });

  it("sums usage over steps and reports it with the terminal event", async () => {
    const sink = recordingSink();
    const model = scriptedModel([
      [toolCall("lookup"), usage({ inputTokens: 10, outputTokens: 2 })],
      [text("ok"), usage({ inputTokens: 15, outputTokens: 3 })],
    ]);
    const result = await runTurn(input({ model, sink }));
    expect(result.usage).toEqual({ inputTokens: 25, outputTokens: 5 });
    expect(sink.ofType("turn_completed")[0]?.usage).toEqual({ inputTokens: 25, outputTokens: 5 });
  });

  it("offers tools promoted by a call from the next step on", async () => {
    const executor = fakeExecutor((request) =>
      request.tool === "tool_search"
        ? { ok: true, content: '{"enabled":["extra"]}', promote: [toolSpec("extra")] }
        : okOutcome("x"),
    );
    const model = scriptedModel([[toolCall("tool_search", { query: "x" })], [toolCall("extra")], [text("done")]]);
    const result = await runTurn(input({ model, executor, tools: [toolSpec("tool_search")] }));
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toEqual(["tool_search", "extra"]);
    expect(executor.calls.map((call) => call.tool)).toEqual(["tool_search", "extra"]);
    expect(result.status).toBe("completed");
  });
});

describe("runTurn: streaming flag", () => {
  /** The scripted model, noting what each request said about streaming. */
  function flagRecordingModel(steps: Parameters<typeof scriptedModel>[0]) {
    const inner = scriptedModel(steps);
    const flags: Array<boolean | undefined> = [];
    const model: Model = {
      id: inner.id,
      stream: (request) => {
        flags.push(request.streaming);
        return inner.stream(request);
      },
    };
    return { model, flags };
  }

  it("asks every step with streaming: false when the turn is not streamed, with the same events", async () => {
    const { model, flags } = flagRecordingModel([[text("Let me look."), toolCall("lookup")], [text("Done.")]]);
    const sink = recordingSink();
    const result = await runTurn(input({ model, sink, streaming: false }));
    expect(result).toMatchObject({ status: "completed", content: "Done." });
    expect(flags).toEqual([false, false]);
    expect(sink.types()).toEqual([...ONE_CALL_TURN_EVENTS]);
  });

  it("asks with streaming: true by default", async () => {
    const { model, flags } = flagRecordingModel([[toolCall("lookup")], [text("Done.")]]);
    await runTurn(input({ model }));
    expect(flags).toEqual([true, true]);
  });
});

describe("runTurn: failures", () => {
  it("fails the turn on a model stream error, with one terminal event", async () => {
    const sink = recordingSink();
    const model = scriptedModel([[text("partial"), streamError("upstream 500")]]);
    const result = await runTurn(input({ model, sink }));
    expect(result).toMatchObject({ status: "failed", error: "model error: upstream 500", content: "" });
    expect(sink.events.at(-1)).toEqual({
      type: "turn_failed",
      error: "model error: upstream 500",
      code: "model_error",
      fault: "model",
    });
    expectSingleTerminal(sink, "turn_failed");
  });

  it("fails the turn when the model throws before streaming", async () => {
    const model = {
      id: "broken",
      stream: () => {
        throw new Error("no connection");
      },
    };
    const result = await runTurn(input({ model }));
    expect(result).toMatchObject({ status: "failed", error: "model error: no connection" });
  });

  it("fails the turn when the scripted model runs out of steps", async () => {
    const model = scriptedModel([[toolCall("lookup")]]);
    const result = await runTurn(input({ model }));
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/^model error: scripted model: request 2 has no scripted step/);
  });

  it("fails with `turn cancelled` when the caller aborts during streaming", async () => {
    const controller = new AbortController();
    const sink = recordingSink();
    const model = scriptedModel([[text("a"), text("b", 5_000)]]);
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    const result = await runTurn(input({ model, sink, signal: controller.signal }));
    expect(result).toMatchObject({ status: "failed", error: "turn cancelled" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(model.requests[0]?.signal.aborted).toBe(true);
    expectSingleTerminal(sink, "turn_failed");
  });

  it("fails with `turn cancelled` at once when the signal is already aborted", async () => {
    const model = scriptedModel([[text("never")]]);
    const result = await runTurn(input({ model, signal: AbortSignal.abort() }));
    expect(result).toMatchObject({ status: "failed", error: "turn cancelled" });
    expect(model.requests).toHaveLength(0);
  });

  it("aborts a running call when the caller cancels, and still closes its trace entry", async () => {
    const controller = new AbortController();
    const sink = recordingSink();
    let callSignal: AbortSignal | undefined;
    const executor = fakeExecutor(async (request) => {
      callSignal = request.signal;
      setTimeout(() => controller.abort(), 10);
      await sleep(5_000, request.signal);
      return okOutcome("late");
    });
    const model = scriptedModel([[toolCall("lookup")], [text("never")]]);
    const result = await runTurn(input({ model, executor, sink, signal: controller.signal }));
    expect(result).toMatchObject({ status: "failed", error: "turn cancelled" });
    expect(callSignal?.aborted).toBe(true);
    expect(sink.ofType("tool_result")[0]).toMatchObject({ ok: false, error: "aborted: turn cancelled" });
    expect(model.requests).toHaveLength(1);
    expectSingleTerminal(sink, "turn_failed");
  });

  it("fails on limits that cannot mean anything, naming them", async () => {
    const sink = recordingSink();
    const result = await runTurn(input({ model: scriptedModel([]), sink, limits: { tool_concurrency: 0 } }));
    expect(result.error).toBe("invalid limits: tool_concurrency must be an integer >= 1");
    expect(sink.types()).toEqual(["turn_started", "turn_failed"]);
  });

  it("fails the turn when the sink fails, and still tries the terminal event", async () => {
    const seen: string[] = [];
    const sink = {
      emit(event: { type: string }) {
        seen.push(event.type);
        if (event.type === "text_delta") throw new Error("disk full");
      },
    };
    const model = scriptedModel([[text("hi")]]);
    const result = await runTurn(input({ model, sink }));
    expect(result).toMatchObject({ status: "failed", error: "event sink failed: disk full" });
    expect(seen.at(-1)).toBe("turn_failed");
  });
});

describe("runTurn: an async sink", () => {
  it("is handed every event in emission order, and the turn ends only once all of them are durable", async () => {
    const order: string[] = [];
    const delays = [30, 1, 20, 0, 15, 5, 25, 2, 10, 3, 8, 4];
    let index = 0;
    let pending = 0;
    const sink = {
      // The port's contract: the order of calls is the order; durability comes later, in any order.
      async emit(event: { type: string; call_id?: string; text?: string }) {
        order.push(
          event.call_id ? `${event.type}:${event.call_id}` : event.text ? `${event.type}:${event.text}` : event.type,
        );
        pending += 1;
        await sleep(delays[index++ % delays.length] ?? 0);
        pending -= 1;
      },
    };
    const executor = fakeExecutor(async (request) => {
      await sleep(request.callId === "a" ? 80 : 5);
      return okOutcome(request.callId);
    });
    const model = scriptedModel([
      [text("1"), text("2"), toolCall("lookup", {}, { id: "a" }), toolCall("lookup", {}, { id: "b" })],
      [text("3")],
    ]);
    const result = await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 2 } }));
    expect(result.status).toBe("completed");
    expect(pending).toBe(0); // runTurn resolved only once every event was durable
    expect(order).toEqual([
      "turn_started",
      "text_delta:1",
      "text_delta:2",
      "tool_call:a",
      "tool_call:b",
      "tool_result:b",
      "tool_result:a",
      "text_delta:3",
      "turn_completed",
    ]);
  });
});
