import { describe, expect, it } from "vitest";
import { scriptedModel, text, toolCall } from "@/lib/providers/scripted";
import type { ToolOutcome } from "./ports";
import { haltContent } from "./halt-content";
import { runTurn } from "./run-turn";
import {
  fakeExecutor,
  failedOutcome,
  okOutcome,
  recordingSink,
  sleep,
  terminalEvents,
  toolSpec,
  turnInput,
  type TurnInputOverrides,
} from "./test-support";

const TOOLS = [toolSpec("subscribe"), toolSpec("lookup")];

const input = (overrides: TurnInputOverrides) => turnInput({ userMessage: "sign me up", tools: TOOLS, ...overrides });

const halting = (say: string | null): ToolOutcome =>
  okOutcome(
    { status: "SUBSCRIBED", message: "You're in!" },
    { halt: { say, reason: 'tool_result.status = "SUBSCRIBED"' } },
  );

describe("halt_when", () => {
  it("keeps the lead-in, publishes nothing after the call and asks the model nothing more", async () => {
    const sink = recordingSink();
    const model = scriptedModel([
      [text("One moment, "), text("subscribing you."), toolCall("subscribe")],
      [text("never")],
    ]);
    const result = await runTurn(input({ model, sink, executor: fakeExecutor(() => halting("You're in!")) }));
    expect(result).toMatchObject({ status: "halted", content: "One moment, subscribing you." });
    expect(model.requests).toHaveLength(1);
    expect(sink.events.at(-1)).toEqual({ type: "turn_halted", content: "One moment, subscribing you." });
    expect(sink.ofType("tool_result")[0]).toMatchObject({ ok: true, halted: true });
    expect(terminalEvents(sink)).toHaveLength(1);
    // The halting result is recorded; nothing follows it.
    expect(result.messages.at(-1)).toMatchObject({
      role: "tool",
      content: '{"status":"SUBSCRIBED","message":"You\'re in!"}',
    });
  });

  it("publishes `say` when the model wrote no lead-in", async () => {
    const model = scriptedModel([[toolCall("subscribe")]]);
    const result = await runTurn(input({ model, executor: fakeExecutor(() => halting("You're in!")) }));
    expect(result).toMatchObject({ status: "halted", content: "You're in!" });
  });

  it("treats a blank lead-in as none", async () => {
    const model = scriptedModel([[text("  \n"), toolCall("subscribe")]]);
    const result = await runTurn(input({ model, executor: fakeExecutor(() => halting("CALL_SUPPORT")) }));
    expect(result.content).toBe("CALL_SUPPORT");
  });

  it("completes empty with neither lead-in nor say", async () => {
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("subscribe")]]);
    const result = await runTurn(input({ model, sink, executor: fakeExecutor(() => halting(null)) }));
    expect(result).toMatchObject({ status: "halted", content: "" });
    expect(sink.events.at(-1)).toEqual({ type: "turn_halted", content: "" });
  });

  it("uses the halting step's lead-in, not text from earlier steps of the turn", async () => {
    const executor = fakeExecutor((request) =>
      request.tool === "subscribe" ? halting("You're in!") : okOutcome({ plan: "pro" }),
    );
    const model = scriptedModel([[text("Checking your plan."), toolCall("lookup")], [toolCall("subscribe")]]);
    const result = await runTurn(input({ model, executor }));
    expect(result).toMatchObject({ status: "halted", content: "You're in!" });
    expect(model.requests).toHaveLength(2);
  });

  it("never halts on a failure, even one carrying a verdict", async () => {
    const bogus = { ...failedOutcome("HTTP 500"), halt: { say: "x", reason: "y" } } as unknown as ToolOutcome;
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("subscribe")], [text("That failed, sorry.")]]);
    const result = await runTurn(input({ model, sink, executor: fakeExecutor(() => bogus) }));
    expect(result).toMatchObject({ status: "completed", content: "That failed, sorry." });
    expect(model.requests).toHaveLength(2);
    expect(sink.ofType("tool_result")[0]?.halted).toBeUndefined();
  });

  it("serial: calls after the halting one do not run", async () => {
    const executor = fakeExecutor((request) => (request.tool === "subscribe" ? halting(null) : okOutcome(1)));
    const model = scriptedModel([[toolCall("subscribe", {}, { id: "s" }), toolCall("lookup", {}, { id: "l" })]]);
    const result = await runTurn(input({ model, executor }));
    expect(result.status).toBe("halted");
    expect(executor.calls.map((call) => call.tool)).toEqual(["subscribe"]);
    expect(result.messages.at(-1)).toEqual({
      role: "tool",
      callId: "l",
      tool: "lookup",
      content: '{"error":"not run: the turn halted"}',
    });
  });

  it("parallel: running siblings finish, queued ones never start, then the turn halts", async () => {
    const executor = fakeExecutor(async (request) => {
      if (request.callId === "s") return halting("done");
      await sleep(60, request.signal);
      return okOutcome(request.callId);
    });
    const sink = recordingSink();
    const model = scriptedModel([
      [
        toolCall("subscribe", {}, { id: "s" }),
        toolCall("lookup", {}, { id: "a" }),
        toolCall("lookup", {}, { id: "q" }),
      ],
      [text("never")],
    ]);
    const result = await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 2 } }));
    expect(result).toMatchObject({ status: "halted", content: "done" });
    expect(executor.calls.map((call) => call.callId)).toEqual(["s", "a"]);
    expect(sink.ofType("tool_result").map((event) => [event.call_id, event.ok])).toEqual([
      ["s", true],
      ["a", true],
    ]);
    expect(sink.types().slice(-2)).toEqual(["tool_result", "turn_halted"]);
    expect(result.messages.at(-1)).toMatchObject({ callId: "q", content: '{"error":"not run: the turn halted"}' });
    expect(model.requests).toHaveLength(1);
  });

  it("parallel: the first halting call in call order gives the say, whoever finished first", async () => {
    const executor = fakeExecutor(async (request) => {
      await sleep(request.callId === "first" ? 50 : 5);
      return halting(request.callId === "first" ? "from first" : "from second");
    });
    const model = scriptedModel([
      [toolCall("subscribe", {}, { id: "first" }), toolCall("subscribe", {}, { id: "second" })],
    ]);
    const result = await runTurn(input({ model, executor, limits: { tool_concurrency: 2 } }));
    expect(result.content).toBe("from first");
  });

  it("a failure of the turn in the same batch wins over a halt", async () => {
    const executor = fakeExecutor(() => halting("x"));
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("subscribe"), toolCall("subscribe"), toolCall("subscribe")]]);
    const result = await runTurn(input({ model, executor, sink, limits: { tool_concurrency: 3, max_tool_calls: 2 } }));
    expect(result).toMatchObject({ status: "failed", error: "tool call limit exceeded (2)" });
    expect(terminalEvents(sink).map((event) => event.type)).toEqual(["turn_failed"]);
  });
});

describe("haltContent", () => {
  const verdict = (say: string | null) => ({ say, reason: "r" });
  it("prefers a non-blank lead-in, then the first say, then nothing", () => {
    expect(haltContent("Hi", [verdict("say")])).toBe("Hi");
    expect(haltContent(" ", [verdict("say"), verdict("other")])).toBe("say");
    expect(haltContent("", [verdict(null), verdict("other")])).toBe("");
    expect(haltContent("", [])).toBe("");
  });
});
