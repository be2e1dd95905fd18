import { describe, expect, it } from "vitest";
import { scriptedModel, text, toolCall } from "@/lib/providers/scripted";
import { callIdentity } from "./call-identity";
import type {
  CheckpointStore,
  CompletedCall,
  ModelMessage,
  ResumeState,
  StartedCall,
  ToolCallRequest,
  TurnCheckpoint,
} from "./ports";
import { OUTCOME_UNKNOWN } from "./resume-ledger";
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

const TURN = "turn-r";

const input = (overrides: TurnInputOverrides) =>
  turnInput({
    turnId: TURN,
    tools: [toolSpec("lookup"), toolSpec("charge"), toolSpec("tool_search")],
    executor: fakeExecutor((request) => okOutcome(`${request.tool}:${request.callId}`)),
    ...overrides,
  });

/** A store that keeps everything, in the order it was told. */
function memoryStore() {
  const log: string[] = [];
  const saved: TurnCheckpoint[] = [];
  const started: StartedCall[] = [];
  const completed: CompletedCall[] = [];
  const store: Required<CheckpointStore> = {
    // An open batch is the save that says so (batchOpen without an end or a wait).
    save: (checkpoint) =>
      void (saved.push(checkpoint), log.push(`${isOpenBatch(checkpoint) ? "open" : "save"} ${checkpoint.step}`)),
    callStarted: (call) => void (started.push(call), log.push(`started ${call.callId}`)),
    callCompleted: (call) => void (completed.push(call), log.push(`completed ${call.callId}`)),
  };
  return { store, log, saved, started, completed };
}

const isOpenBatch = (checkpoint: TurnCheckpoint) => checkpoint.batchOpen === true && !checkpoint.waitingOn;

const id = (step: number, position: number, tool: string, args: unknown = {}) =>
  callIdentity({ turnId: TURN, step, position, tool, arguments: args });

/** A checkpoint holding step 0's assistant message with three calls, none answered yet. */
function openBatch(): TurnCheckpoint {
  const messages: ModelMessage[] = [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "On it.",
      toolCalls: [
        { id: "a", name: "charge", arguments: '{"n":1}' },
        { id: "b", name: "charge", arguments: '{"n":2}' },
        { id: "c", name: "lookup", arguments: "{}" },
      ],
    },
  ];
  return { turnId: TURN, step: 0, messages, completedCalls: [], batchOpen: true };
}

describe("checkpoints and the call journal", () => {
  it("save the step's calls before any runs, journal each call around the executor", async () => {
    const memory = memoryStore();
    const executor = fakeExecutor((request) => (memory.log.push(`execute ${request.callId}`), okOutcome(1)));
    const sink = recordingSink((event) =>
      event.type === "tool_call" || event.type === "tool_result" ? (memory.log.push(event.type), 0) : 0,
    );
    const model = scriptedModel([[text("On it."), toolCall("charge", { n: 1 }, { id: "a" })], [text("done")]]);
    await runTurn(input({ model, executor, sink, checkpoints: memory.store }));
    expect(memory.log).toEqual([
      "open 0",
      "started a",
      "tool_call",
      "execute a",
      "completed a",
      "tool_result",
      "save 0",
      "save 1",
    ]);
    expect(memory.saved[0]).toMatchObject({ step: 0, batchOpen: true });
    expect(memory.saved[0]?.messages.at(-1)).toMatchObject({ role: "assistant", toolCalls: [{ id: "a" }] });
    expect(memory.started[0]).toMatchObject({ identity: id(0, 0, "charge", { n: 1 }), arguments: { n: 1 } });
    expect(memory.completed[0]).toMatchObject({ callId: "a", ok: true, content: "1" });
    expect(memory.saved.at(-1)?.end).toEqual({ status: "completed", content: "done" });
  });

  it("a journal that cannot record a start fails the turn and the call is never executed", async () => {
    const executor = fakeExecutor(() => okOutcome(1));
    const store: CheckpointStore = { save: () => undefined, callStarted: () => Promise.reject(new Error("disk full")) };
    const model = scriptedModel([[toolCall("charge", {}, { id: "a" })], [text("never")]]);
    const result = await runTurn(input({ model, executor, checkpoints: store }));
    expect(result).toMatchObject({ status: "failed", error: "checkpoint failed: disk full" });
    expect(executor.calls).toHaveLength(0);
    expect(model.requests).toHaveLength(1);
  });
});

describe("the settle writes of a call without side effects", () => {
  /** A store whose completion entries commit only when `commit()` is called. */
  function slowCompletions() {
    const log: string[] = [];
    let commit = () => undefined as void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const store: Required<CheckpointStore> = {
      save: (checkpoint) => void log.push(`save ${checkpoint.step}${checkpoint.end ? " end" : ""}`),
      callStarted: (call) => void log.push(`started ${call.callId}`),
      callCompleted: async (call) => {
        log.push(`completing ${call.callId}`);
        await committed;
        log.push(`completed ${call.callId}`);
      },
    };
    return { store, log, commit: () => commit() };
  }

  /** A turn calling `tool` (call a; "charge" has side effects) then answering, 20 ms in, its completions held. */
  async function turnCalling(tool: string) {
    const executor = fakeExecutor(() => okOutcome(1));
    executor.sideEffect = (name) => name === "charge";
    const { store, log, commit } = slowCompletions();
    const model = scriptedModel([[toolCall(tool, {}, { id: "a" })], [text("done")]]);
    const done = runTurn(input({ model, executor, checkpoints: store }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { model, log, commit, done };
  }

  it("do not hold the batch: the next checkpoint is written alongside, and the turn waits for both", async () => {
    const { model, log, commit, done } = await turnCalling("lookup");
    // The checkpoint after the batch was handed over before the completion committed, and the
    // model was not asked again before it did.
    expect(log).toEqual(["save 0", "started a", "completing a", "save 0"]);
    expect(model.requests).toHaveLength(1);
    commit();
    expect(await done).toMatchObject({ status: "completed", content: "done" });
    expect(log.slice(4)).toEqual(["completed a", "save 1 end"]);
  });

  it("of a side-effecting call hold the batch until they are durable", async () => {
    const { log, commit, done } = await turnCalling("charge");
    expect(log).toEqual(["save 0", "started a", "completing a"]);
    commit();
    expect(await done).toMatchObject({ status: "completed" });
    expect(log.slice(3)).toEqual(["completed a", "save 0", "save 1 end"]);
  });

  it("still fail the turn when they cannot be written", async () => {
    const executor = fakeExecutor(() => okOutcome(1));
    executor.sideEffect = () => false;
    const store: CheckpointStore = {
      save: () => undefined,
      callStarted: () => undefined,
      callCompleted: () => Promise.reject(new Error("disk full")),
    };
    const model = scriptedModel([[toolCall("lookup", {}, { id: "a" })], [text("never")]]);
    const result = await runTurn(input({ model, executor, checkpoints: store }));
    expect(result).toMatchObject({ status: "failed", error: "checkpoint failed: disk full" });
    expect(model.requests).toHaveLength(1);
  });
});

describe("resume (DESIGN D9)", () => {
  it("runs an open batch again: reuses completed calls, reports in-flight side effects unknown, re-runs the rest", async () => {
    const sink = recordingSink();
    const executor = fakeExecutor((request) => okOutcome(`fresh ${request.callId}`));
    executor.sideEffect = (tool) => tool === "charge";
    const resume: ResumeState = {
      checkpoint: openBatch(),
      // Matched by identity: the journal's provider id differs and does not matter.
      completed: [
        {
          identity: id(0, 0, "charge", { n: 1 }),
          step: 0,
          position: 0,
          callId: "other-id",
          tool: "charge",
          ok: true,
          content: '"charged once"',
        },
      ],
      inFlight: [id(0, 1, "charge", { n: 2 }), id(0, 2, "lookup")],
      // The store's record of what b sent: it rides on b's "outcome unknown" result, untouched.
      unknownRecords: new Map([[id(0, 1, "charge", { n: 2 }), { sent: "b's request" }]]),
    };
    const model = scriptedModel([[text("All done.")]]);
    const result = await runTurn(input({ model, executor, sink, resume }));
    expect(sink.ofType("tool_result").find((e) => e.call_id === "b")).toMatchObject({
      ok: false,
      error: OUTCOME_UNKNOWN,
      record: { sent: "b's request" },
    });

    expect(result).toMatchObject({ status: "completed", content: "All done." });
    expect(executor.calls.map((call) => call.callId)).toEqual(["c"]); // only the harmless one ran again
    expect(result.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual([
      '"charged once"',
      JSON.stringify({ error: OUTCOME_UNKNOWN }),
      '"fresh c"',
    ]);
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "assistant"]);
    expect(sink.events[0]).toEqual({ type: "turn_resumed", turn_id: TURN, step: 0 });
    expect(sink.ofType("tool_result").map((e) => [e.call_id, e.ok, e.replayed])).toEqual([
      ["a", true, true],
      ["b", false, undefined],
      ["c", true, undefined],
    ]);
    expect(sink.ofType("tool_call").map((e) => [e.call_id, e.replayed])).toEqual([
      ["a", true],
      ["b", true],
      ["c", undefined],
    ]);
    // The model was not asked for step 0 again: its one request already holds all three results.
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.messages.filter((m) => m.role === "tool")).toHaveLength(3);
    expect(terminalEvents(sink)).toHaveLength(1);
  });

  it("does not reuse a journal entry whose arguments differ (identity includes canonical arguments)", async () => {
    const executor = fakeExecutor(() => okOutcome("ran"));
    const resume: ResumeState = {
      checkpoint: openBatch(),
      completed: [
        {
          identity: id(0, 0, "charge", { n: 99 }),
          step: 0,
          position: 0,
          callId: "a",
          tool: "charge",
          ok: true,
          content: '"stale"',
        },
      ],
      inFlight: [],
    };
    const result = await runTurn(input({ model: scriptedModel([[text("ok")]]), executor, resume }));
    expect(executor.calls.map((call) => call.callId)).toEqual(["a", "b", "c"]);
    expect(result.messages[2]).toMatchObject({ content: '"ran"' });
  });

  it("treats every tool as side-effecting when the executor cannot say", async () => {
    const executor = fakeExecutor(() => okOutcome("ran"));
    const resume: ResumeState = { checkpoint: openBatch(), completed: [], inFlight: [id(0, 2, "lookup")] };
    const result = await runTurn(input({ model: scriptedModel([[text("ok")]]), executor, resume }));
    expect(executor.calls.map((call) => call.callId)).toEqual(["a", "b"]);
    expect(result.messages[4]).toMatchObject({ callId: "c", content: JSON.stringify({ error: OUTCOME_UNKNOWN }) });
  });

  it("continues a closed checkpoint with the next model step and keeps the earlier messages", async () => {
    const checkpoint: TurnCheckpoint = {
      turnId: TURN,
      step: 0,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "", toolCalls: [{ id: "a", name: "lookup", arguments: "{}" }] },
        { role: "tool", callId: "a", tool: "lookup", content: '"x"' },
      ],
      completedCalls: [],
      usage: { inputTokens: 5 },
    };
    const model = scriptedModel([[text("Here it is.")]]);
    const memory = memoryStore();
    const result = await runTurn(
      input({ model, resume: { checkpoint, completed: [], inFlight: [] }, checkpoints: memory.store }),
    );
    expect(result.status).toBe("completed");
    expect(result.messages).toEqual([...checkpoint.messages, { role: "assistant", content: "Here it is." }]);
    expect(model.requests[0]?.messages).toEqual(checkpoint.messages);
    expect(memory.saved.at(-1)).toMatchObject({ step: 1, usage: { inputTokens: 5 } });
    expect(result.usage).toEqual({ inputTokens: 5 });
  });

  it("announces a turn that had already ended without asking the model", async () => {
    const checkpoint: TurnCheckpoint = {
      turnId: TURN,
      step: 1,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "bye" },
      ],
      completedCalls: [],
      end: { status: "completed", content: "bye" },
    };
    const sink = recordingSink();
    const model = scriptedModel([]);
    const result = await runTurn(input({ model, sink, resume: { checkpoint, completed: [], inFlight: [] } }));
    expect(result).toMatchObject({ status: "completed", content: "bye" });
    expect(model.requests).toHaveLength(0);
    expect(sink.types()).toEqual(["turn_resumed", "turn_completed"]);
  });

  it("a reused halting call still halts: no model request after it", async () => {
    const halt = { say: "Subscribed!", reason: "status = SUBSCRIBED" };
    const checkpoint = openBatch();
    checkpoint.messages[1] = {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "a", name: "charge", arguments: '{"n":1}' }],
    };
    const completed: CompletedCall[] = [
      {
        identity: id(0, 0, "charge", { n: 1 }),
        step: 0,
        position: 0,
        callId: "a",
        tool: "charge",
        ok: true,
        content: "{}",
        halt,
      },
    ];
    const model = scriptedModel([[text("SHOULD NOT BE SAID")]]);
    const result = await runTurn(input({ model, resume: { checkpoint, completed, inFlight: [] } }));
    expect(result).toMatchObject({ status: "halted", content: "Subscribed!" });
    expect(model.requests).toHaveLength(0);
  });

  it("offers again what was promoted before the restart, and what a reused call promoted", async () => {
    const checkpoint: TurnCheckpoint = {
      turnId: TURN,
      step: 0,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: "", toolCalls: [{ id: "s", name: "tool_search", arguments: '{"query":"w"}' }] },
      ],
      completedCalls: [],
      batchOpen: true,
      promoted: [toolSpec("earlier")],
    };
    const completed: CompletedCall[] = [
      {
        identity: id(0, 0, "tool_search", { query: "w" }),
        step: 0,
        position: 0,
        callId: "s",
        tool: "tool_search",
        ok: true,
        content: "[]",
        promote: [toolSpec("weather")],
      },
    ];
    const model = scriptedModel([[text("ok")]]);
    await runTurn(input({ model, resume: { checkpoint, completed, inFlight: [] } }));
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual([
      "lookup",
      "charge",
      "tool_search",
      "earlier",
      "weather",
    ]);
  });

  it("keeps counting max_tool_calls across the restart", async () => {
    const checkpoint: TurnCheckpoint = {
      turnId: TURN,
      step: 0,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "a", name: "lookup", arguments: "{}" },
            { id: "b", name: "lookup", arguments: "{}" },
          ],
        },
        { role: "tool", callId: "a", tool: "lookup", content: "1" },
        { role: "tool", callId: "b", tool: "lookup", content: "1" },
      ],
      completedCalls: [],
    };
    const model = scriptedModel([[toolCall("lookup")]]);
    const result = await runTurn(
      input({ model, limits: { max_tool_calls: 2 }, resume: { checkpoint, completed: [], inFlight: [] } }),
    );
    expect(result).toMatchObject({ status: "failed", error: "tool call limit exceeded (2)" });
  });

  it("fails clearly on a checkpoint whose open batch has no calls", async () => {
    const checkpoint: TurnCheckpoint = {
      turnId: TURN,
      step: 0,
      messages: [{ role: "user", content: "go" }],
      completedCalls: [],
      batchOpen: true,
    };
    const result = await runTurn(
      input({ model: scriptedModel([]), resume: { checkpoint, completed: [], inFlight: [] } }),
    );
    expect(result).toMatchObject({
      status: "failed",
      error: "resume failed: the checkpoint's open batch has no tool calls",
    });
  });
});

describe("approvals across a wait and a resume", () => {
  it("asks when the call's turn comes, announces the approval, then runs it after approval without re-running the others", async () => {
    const decisions = new Map<string, "pending" | "approved">();
    const gate = {
      check: (request: { identity: string; tool: string }) => {
        if (request.tool !== "charge") return { action: "run" as const };
        const state = decisions.get(request.identity);
        if (!state) {
          decisions.set(request.identity, "pending");
          return { action: "wait" as const, approval: { id: `apr-${decisions.size}`, state: "requested" as const } };
        }
        if (state === "pending") return { action: "wait" as const, approval: { id: "apr", state: "pending" as const } };
        return {
          action: "run" as const,
          approval: { id: `apr-${[...decisions.keys()].indexOf(request.identity) + 1}`, state: "approved" as const },
        };
      },
    };
    const executed: ToolCallRequest[] = [];
    const executor = fakeExecutor((request) => (executed.push(request), okOutcome(request.callId)));
    const memory = memoryStore();
    const steps = [
      [
        toolCall("lookup", {}, { id: "l" }),
        toolCall("charge", { n: 1 }, { id: "c1" }),
        toolCall("charge", { n: 2 }, { id: "c2" }),
      ],
      [text("paid twice")],
    ];
    const first = recordingSink();
    const waiting = await runTurn(
      input({ model: scriptedModel(steps), executor, sink: first, gate, checkpoints: memory.store }),
    );
    expect(waiting.status).toBe("waiting");
    expect(first.ofType("approval_requested")).toEqual([
      { type: "approval_requested", approval_id: "apr-1", call_id: "c1", tool: "charge", arguments: { n: 1 } },
    ]);

    const resumeFrom = (): ResumeState => ({
      checkpoint: memory.saved.at(-1)!,
      completed: [...memory.completed],
      inFlight: [],
    });
    decisions.set(id(0, 1, "charge", { n: 1 }), "approved");
    const second = recordingSink();
    const again = await runTurn(
      input({
        model: scriptedModel(steps.slice(1)),
        executor,
        sink: second,
        gate,
        checkpoints: memory.store,
        resume: resumeFrom(),
      }),
    );
    expect(again.status).toBe("waiting"); // the second charge needs its own decision
    expect(second.types()).toEqual([
      "turn_resumed",
      "tool_call",
      "tool_result",
      "approval_resolved",
      "tool_call",
      "tool_result",
      "approval_requested",
      "turn_waiting",
    ]);

    decisions.set(id(0, 2, "charge", { n: 2 }), "approved");
    const third = await runTurn(
      input({ model: scriptedModel(steps.slice(1)), executor, gate, checkpoints: memory.store, resume: resumeFrom() }),
    );
    expect(third).toMatchObject({ status: "completed", content: "paid twice" });
    expect(executed.map((request) => request.callId)).toEqual(["l", "c1", "c2"]);
    expect(third.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "tool", "tool", "assistant"]);
  });

  it("announces a rejection and an expiry as approval_resolved with decision rejected", async () => {
    const sink = recordingSink();
    const states = ["rejected", "expired"] as const;
    let asked = 0;
    const gate = {
      check: () => ({
        action: "refuse" as const,
        error: "rejected by operator",
        approval: { id: `apr-${asked}`, state: states[asked++]! },
      }),
    };
    const model = scriptedModel([
      [toolCall("charge", {}, { id: "x" }), toolCall("charge", { n: 2 }, { id: "y" })],
      [text("ok")],
    ]);
    const result = await runTurn(input({ model, sink, gate }));
    expect(sink.ofType("approval_resolved")).toEqual([
      { type: "approval_resolved", approval_id: "apr-0", call_id: "x", decision: "rejected" },
      { type: "approval_resolved", approval_id: "apr-1", call_id: "y", decision: "rejected", expired: true },
    ]);
    expect(result.messages[2]).toMatchObject({ content: '{"error":"rejected by operator"}' });
  });
});
