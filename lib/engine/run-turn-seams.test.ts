import { describe, expect, it } from "vitest";
import { scriptedModel, text, toolCall } from "@/lib/providers/scripted";
import { callIdentity } from "./call-identity";
import type { GateDecision, GateRequest, TurnCheckpoint } from "./ports";
import { runTurn } from "./run-turn";
import {
  fakeExecutor,
  okOutcome,
  recordingSink,
  terminalEvents,
  toolSpec,
  turnInput,
  type TurnInputOverrides,
} from "./test-support";

const input = (overrides: TurnInputOverrides) =>
  turnInput({
    turnId: "turn-7",
    tools: [toolSpec("lookup"), toolSpec("refund"), toolSpec("tool_search")],
    executor: fakeExecutor(() => okOutcome("ok")),
    ...overrides,
  });

describe("checkpoints (resume seam)", () => {
  it("are saved after every step with the messages so far and completed call identities", async () => {
    const saved: TurnCheckpoint[] = [];
    const model = scriptedModel([
      [toolCall("lookup", '{"b":2,"a":{"y":1,"x":0}}', { id: "p1" }), toolCall("lookup", "oops", { id: "p2" })],
      [text("done")],
    ]);
    const result = await runTurn(input({ model, checkpoints: { save: (checkpoint) => void saved.push(checkpoint) } }));
    // Step 0's calls are saved as an open batch before any runs, then the step once they did.
    expect(saved.map((checkpoint) => [checkpoint.step, checkpoint.batchOpen === true])).toEqual([
      [0, true],
      [0, false],
      [1, false],
    ]);
    expect(saved[0]?.messages).toEqual(result.messages.slice(0, 2));
    expect(saved[0]?.completedCalls).toEqual([]);
    expect(saved[1]?.messages).toEqual(result.messages.slice(0, 4));
    expect(saved[2]?.messages).toEqual(result.messages);
    const [first, second] = saved[1]?.completedCalls ?? [];
    expect(first).toMatchObject({ step: 0, position: 0, callId: "p1", tool: "lookup", ok: true, content: '"ok"' });
    expect(first?.identity).toBe(
      callIdentity({ turnId: "turn-7", step: 0, position: 0, tool: "lookup", arguments: { a: { x: 0, y: 1 }, b: 2 } }),
    );
    expect(first?.identity).toContain('{\\"a\\":{\\"x\\":0,\\"y\\":1},\\"b\\":2}');
    expect(second).toMatchObject({ position: 1, ok: false });
    expect(saved[2]?.completedCalls).toHaveLength(2);
  });

  it("fail the turn when saving fails", async () => {
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("lookup")], [text("never")]]);
    const result = await runTurn(
      input({ model, sink, checkpoints: { save: () => Promise.reject(new Error("db locked")) } }),
    );
    expect(result).toMatchObject({ status: "failed", error: "checkpoint failed: db locked" });
    expect(model.requests).toHaveLength(1);
    expect(terminalEvents(sink)).toHaveLength(1);
  });
});

describe("gate (approvals seam)", () => {
  const gate = (decide: (request: GateRequest) => GateDecision) => {
    const asked: GateRequest[] = [];
    return { asked, check: (request: GateRequest) => (asked.push(request), decide(request)) };
  };

  it("`wait` stops the turn with turn_waiting before the call runs, and checkpoints where", async () => {
    const sink = recordingSink();
    const saved: TurnCheckpoint[] = [];
    const executor = fakeExecutor(() => okOutcome("ok"));
    const approvals = gate((request) => (request.tool === "refund" ? { action: "wait" } : { action: "run" }));
    const model = scriptedModel([
      [
        toolCall("lookup", {}, { id: "l" }),
        toolCall("refund", { amount: 5 }, { id: "r" }),
        toolCall("lookup", {}, { id: "l2" }),
      ],
    ]);
    const result = await runTurn(
      input({
        model,
        sink,
        executor,
        gate: approvals,
        checkpoints: { save: (checkpoint) => void saved.push(checkpoint) },
      }),
    );
    expect(result).toMatchObject({ status: "waiting", content: "" });
    expect(executor.calls.map((call) => call.callId)).toEqual(["l"]);
    expect(sink.events.at(-1)).toEqual({ type: "turn_waiting" });
    expect(terminalEvents(sink)).toHaveLength(1);
    expect(saved.at(-1)?.waitingOn).toEqual({
      step: 0,
      position: 1,
      callId: "r",
      tool: "refund",
      identity: callIdentity({ turnId: "turn-7", step: 0, position: 1, tool: "refund", arguments: { amount: 5 } }),
    });
    // The waiting call and the ones after it stay open for the resume.
    expect(result.messages.filter((message) => message.role === "tool")).toHaveLength(1);
  });

  it("`refuse` gives the model the error and the turn goes on", async () => {
    const executor = fakeExecutor(() => okOutcome("ok"));
    const model = scriptedModel([[toolCall("refund")], [text("Not allowed, sorry.")]]);
    const result = await runTurn(
      input({ model, executor, gate: gate(() => ({ action: "refuse", error: "rejected by operator" })) }),
    );
    expect(executor.calls).toHaveLength(0);
    expect(result.messages[2]).toMatchObject({ role: "tool", content: '{"error":"rejected by operator"}' });
    expect(result.status).toBe("completed");
  });

  it("is not asked for system tools, forces serial execution and says so", async () => {
    const sink = recordingSink();
    const executor = fakeExecutor(() => okOutcome("ok"));
    const approvals = gate(() => ({ action: "run" }));
    const model = scriptedModel([[toolCall("lookup"), toolCall("tool_search"), toolCall("lookup")], [text("ok")]]);
    await runTurn(input({ model, sink, executor, gate: approvals, limits: { tool_concurrency: 4 } }));
    expect(approvals.asked.map((request) => request.tool)).toEqual(["lookup", "lookup"]);
    expect(executor.maxInFlight).toBe(1);
    expect(sink.ofType("warning")).toEqual([
      { type: "warning", message: "approvals force serial execution; tool_concurrency 4 is ignored for this turn" },
    ]);
    expect(sink.types()[1]).toBe("warning");
  });

  it("names the gated tools in the warning, once per turn: not again when the turn resumes", async () => {
    const sink = recordingSink();
    const approvals = { ...gate(() => ({ action: "wait" })), tools: ["refund", "charge"] };
    const model = scriptedModel([[toolCall("refund"), toolCall("lookup")], [text("ok")]]);
    const saved: TurnCheckpoint[] = [];
    const first = await runTurn(
      input({
        model,
        sink,
        gate: approvals,
        limits: { tool_concurrency: 4 },
        checkpoints: { save: (c) => void saved.push(c) },
      }),
    );
    expect(first.status).toBe("waiting");
    expect(sink.ofType("warning")).toEqual([
      {
        type: "warning",
        message: "approvals on refund, charge force serial execution; tool_concurrency 4 is ignored for this turn",
      },
    ]);

    const again = recordingSink();
    const resume = { checkpoint: saved.at(-1)!, completed: [], inFlight: [] };
    const run = { ...approvals, check: () => ({ action: "run" as const }) };
    const second = await runTurn(
      input({ model: scriptedModel([[text("ok")]]), sink: again, gate: run, limits: { tool_concurrency: 4 }, resume }),
    );
    expect(second.status).toBe("completed");
    expect(again.ofType("warning")).toEqual([]);
  });

  it("no warning when the turn would have been serial anyway, or has no gate", async () => {
    for (const extra of [
      { gate: gate(() => ({ action: "run" })), limits: { tool_concurrency: 1 } },
      { limits: { tool_concurrency: 4 } },
    ]) {
      const sink = recordingSink();
      await runTurn(input({ model: scriptedModel([[toolCall("lookup")], [text("ok")]]), sink, ...extra }));
      expect(sink.ofType("warning")).toEqual([]);
    }
  });
});
