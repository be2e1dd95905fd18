import { describe, expect, it } from "vitest";
import type { SqliteDatabase } from "@/db/sqlite-database";
import { decideApproval, expireApprovals, listApprovals } from "@/db/queries/approvals";
import { getCheckpoint, listJournal } from "@/db/queries/checkpoints";
import {
  claimTurn,
  failTurnIfOwned,
  heldLeases,
  listResumableTurns,
  releaseLeases,
  renewLeases,
} from "@/db/queries/leases";
import { getTurn } from "@/db/queries/turns";
import { listMessages } from "@/db/queries/transcripts";
import { listTrace } from "@/db/queries/traces";
import type { EngineEvent, ModelMessage, TurnCheckpoint } from "@/lib/engine/ports";
import { createApprovalGate, REJECTED_BY_OPERATOR } from "@/lib/services/approvals/approval-gate";
import { OUTCOME_UNKNOWN } from "@/lib/engine/resume-ledger";
import { loadResumeState } from "./load-resume-state";
import { TurnRecorder } from "./turn-recorder";
import { LeaseLostError } from "./lease-fence";
import { markTurnActive, markTurnInactive, noteLeaseHeld } from "./active-turns";
import { firstLine, MAX_LISTED_DEFERRED, turnInstructions } from "./turn-instructions";
import { insertRunningTurn, sessionDb } from "@/test/support/running-turns";

async function fixture(): Promise<{ db: SqliteDatabase; turnId: string; sessionId: string }> {
  const db = await sessionDb({ approvals: ["pay"] });
  await insertRunningTurn(db, "t", { instance: "ins_old", leaseUntil: 10_000 });
  return { db, turnId: "t", sessionId: "s" };
}

const request = (position: number, tool = "pay") => ({
  turnId: "t",
  step: 0,
  position,
  identity: `id-${position}`,
  callId: `c${position}`,
  tool,
  arguments: { n: position },
});

describe("approval gate", () => {
  it("creates one approval per call, waits on it, and turns decisions and expiry into run or refuse", async () => {
    const { db } = await fixture();
    let now = 1_000;
    const gate = createApprovalGate(db, {
      turnId: "t",
      sessionId: "s",
      tools: new Set(["pay"]),
      ttlS: 60,
      now: () => now,
    });
    expect(await gate.check(request(0, "lookup"))).toEqual({ action: "run" });
    const first = (await gate.check(request(0))) as { action: string; approval: { id: string; state: string } };
    expect(first).toMatchObject({ action: "wait", approval: { state: "requested" } });
    expect(await gate.check(request(0))).toEqual({
      action: "wait",
      approval: { id: first.approval.id, state: "pending" },
    });
    const second = (await gate.check(request(1))) as { approval: { id: string } };
    expect(second.approval.id).not.toBe(first.approval.id);
    expect((await listApprovals(db, { status: "pending" })).map((a) => [a.callId, a.expiresAt]).sort()).toEqual([
      ["c0", 61_000],
      ["c1", 61_000],
    ]);

    await decideApproval(db, { id: first.approval.id, status: "approved" });
    expect(await gate.check(request(0))).toEqual({
      action: "run",
      approval: { id: first.approval.id, state: "approved" },
    });
    expect(await decideApproval(db, { id: first.approval.id, status: "rejected" })).toBeUndefined(); // only a pending one can be decided
    now = 61_000;
    expect(await gate.check(request(1))).toEqual({
      action: "refuse",
      error: REJECTED_BY_OPERATOR,
      approval: { id: second.approval.id, state: "expired" },
    });
    expect(await expireApprovals(db, now)).toEqual([]);
  });
});

describe("turn recorder and resume state", () => {
  const assistant: ModelMessage = {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "c0", name: "pay", arguments: "{}" },
      { id: "c1", name: "pay", arguments: "{}" },
    ],
  };
  const checkpoint = (extra: Partial<TurnCheckpoint>): TurnCheckpoint => ({
    turnId: "t",
    step: 0,
    messages: [{ role: "user", content: "go" }, assistant],
    completedCalls: [],
    ...extra,
  });

  it("keeps an open batch out of the transcript, journals calls, and reads it all back for resume", async () => {
    const { db } = await fixture();
    const sent = {
      call_id: "c1",
      tool: "pay",
      kind: "data" as const,
      arguments: { n: 2 },
      request: { method: "POST", url: "https://pay.example/x", headers: { Authorization: "[secret]" } },
    };
    const recorder = await TurnRecorder.open(db, "t", "s", {
      describeCall: (call) => ({ ...sent, call_id: call.callId, arguments: call.arguments }),
    });
    await recorder.save(checkpoint({ batchOpen: true }));
    await recorder.callStarted({
      identity: "id-0",
      step: 0,
      position: 0,
      callId: "c0",
      tool: "pay",
      arguments: { n: 1 },
    });
    await recorder.callCompleted({
      identity: "id-0",
      step: 0,
      position: 0,
      callId: "c0",
      tool: "pay",
      ok: true,
      content: '"paid"',
      halt: { say: null, reason: "r" },
    });
    await recorder.callStarted({
      identity: "id-1",
      step: 0,
      position: 1,
      callId: "c1",
      tool: "pay",
      arguments: { n: 2 },
    });
    expect((await listMessages(db, "s")).map((m) => m.role)).toEqual(["user"]);
    expect(await getCheckpoint(db, "t")).toMatchObject({
      step: 0,
      depth: 2,
      runnerPid: 4242,
      runnerInstance: "ins_old",
      leaseExpiresAt: 10_000,
      state: { batchOpen: true },
    });
    expect((await listJournal(db, "t")).map((j) => [j.identity, j.status])).toEqual([
      ["id-0", "completed"],
      ["id-1", "started"],
    ]);

    const loaded = await loadResumeState(db, { id: "t", userMessage: "go" } as never);
    expect(loaded.depth).toBe(2);
    expect(loaded.resume.inFlight).toEqual(["id-1"]);
    // The in-flight call's trace record, should it be reported "outcome unknown": what it sent, the reason as error.
    expect(loaded.resume.unknownRecords?.get("id-1")).toEqual({
      ...sent,
      status: null,
      ok: false,
      result: JSON.stringify({ error: OUTCOME_UNKNOWN }),
      error: OUTCOME_UNKNOWN,
      outcome_unknown: true,
    });
    expect(loaded.resume.completed).toEqual([
      {
        identity: "id-0",
        step: 0,
        position: 0,
        callId: "c0",
        tool: "pay",
        ok: true,
        content: '"paid"',
        halt: { say: null, reason: "r" },
      },
    ]);
    expect(loaded.resume.checkpoint.messages.at(-1)).toEqual(assistant);

    // The batch closes on resume: the assistant message and both results enter the transcript once.
    const resumed = await TurnRecorder.open(db, "t", "s");
    const tool = (id: string): ModelMessage => ({ role: "tool", callId: id, tool: "pay", content: "1" });
    await resumed.save(checkpoint({ messages: [{ role: "user", content: "go" }, assistant, tool("c0"), tool("c1")] }));
    await resumed.end({
      status: "completed",
      content: "done",
      messages: [
        { role: "user", content: "go" },
        assistant,
        tool("c0"),
        tool("c1"),
        { role: "assistant", content: "done" },
      ],
    });
    expect((await listMessages(db, "s")).map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "tool",
      "assistant",
    ]);
  });

  it("writes a run's end (final checkpoint, terminal event, transcript, turn row) in one commit, and announces it only after", async () => {
    const { db } = await fixture();
    const recorder = await TurnRecorder.open(db, "t", "s");
    // What a listener finds in the database when it is told (read as it is told; never inside the commit).
    const seen: Promise<{ type: string; inTransaction: boolean; status: string | undefined; messages: number }>[] = [];
    recorder.listen((event) => {
      const inTransaction = db.client.inTransaction;
      seen.push(
        Promise.all([getTurn(db, "t"), listMessages(db, "s")]).then(([turn, messages]) => ({
          type: event.type,
          inTransaction,
          status: turn?.status,
          messages: messages.length,
        })),
      );
    });
    const messages: ModelMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: "done" },
    ];
    await recorder.save({
      turnId: "t",
      step: 0,
      messages,
      completedCalls: [],
      end: { status: "completed", content: "done" },
    });
    await recorder.emit({ type: "turn_completed", content: "done" });
    // Held: nothing of the end is written or announced yet.
    expect((await getTurn(db, "t"))?.status).toBe("running");
    expect((await getCheckpoint(db, "t"))?.step).toBe(-1);
    expect((await listTrace(db, ["t"])).events).toEqual([]);
    expect(seen).toEqual([]);

    await recorder.end({ status: "completed", content: "done", messages });
    expect(await Promise.all(seen)).toEqual([
      { type: "turn_completed", inTransaction: false, status: "completed", messages: 2 },
    ]);
    expect(await getCheckpoint(db, "t")).toMatchObject({
      step: 0,
      state: { end: { status: "completed", content: "done" } },
    });
    expect((await listTrace(db, ["t"])).events.map((e) => [e.seq, e.type])).toEqual([[1, "turn_completed"]]);
    expect((await listMessages(db, "s")).map((m) => m.content)).toEqual(["go", "done"]);
  });

  it("writes a trace row for a replayed result only when the original one is missing", async () => {
    const { db } = await fixture();
    const recorder = await TurnRecorder.open(db, "t", "s");
    const result = (callId: string, replayed: boolean): EngineEvent => ({
      type: "tool_result",
      call_id: callId,
      tool: "pay",
      ok: true,
      result: 1,
      duration_ms: 0,
      queued_ms: 0,
      ...(replayed ? { replayed: true as const } : {}),
    });
    await recorder.emit(result("c0", false));
    await recorder.emit(result("c0", true));
    await recorder.emit(result("c1", true));
    const { calls, events } = await listTrace(db, ["t"]);
    expect(calls.map((c) => [c.callId, c.record.replayed ?? false])).toEqual([
      ["c0", false],
      ["c1", true],
    ]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it("claims a running turn only once its lease has expired, whatever its PID; the loser of a race gets false", async () => {
    const { db } = await fixture(); // owned by ins_old (pid 4242) until 10 000
    const claim = (instance: string, now: number) =>
      claimTurn(db, { turnId: "t", instance, pid: process.pid, now, leaseMs: 15_000, from: "running" });
    expect(await claim("ins_new", 9_999)).toBe(false); // the lease holds: the owner may well be alive
    // Two claimers that both saw the lease expired: the update itself compares, so one wins.
    expect(await claim("ins_a", 10_000)).toBe(true);
    expect(await claim("ins_b", 10_000)).toBe(false);
    expect(await getCheckpoint(db, "t")).toMatchObject({
      runnerInstance: "ins_a",
      runnerPid: process.pid,
      leaseExpiresAt: 25_000,
    });
    expect(await claim("ins_a", 11_000)).toBe(true); // its own instance may claim again (a run of its own that ended)
    expect(
      await claimTurn(db, { turnId: "t", instance: "ins_b", pid: 1, now: 99_000, leaseMs: 1, from: "waiting" }),
    ).toBe(false); // it is running, not waiting
  });

  it("renews only the leases an instance still holds, and fences the writes of a run that lost its lease", async () => {
    const { db } = await fixture();
    expect(await renewLeases(db, { instance: "ins_old", turnIds: ["t", "unknown"], until: 20_000 })).toBe(1);
    expect((await getCheckpoint(db, "t"))?.leaseExpiresAt).toBe(20_000);
    const recorder = await TurnRecorder.open(db, "t", "s", { lease: { instance: "ins_old" } });
    await recorder.emit({ type: "text_delta", text: "a" });
    expect(
      await claimTurn(db, { turnId: "t", instance: "ins_new", pid: 1, now: 20_000, leaseMs: 15_000, from: "running" }),
    ).toBe(true);
    expect(await renewLeases(db, { instance: "ins_old", turnIds: ["t"], until: 40_000 })).toBe(0);
    expect((await heldLeases(db, { turnIds: ["t"], instance: "ins_old" })).has("t")).toBe(false);
    // The old owner (stalled past its lease, still running) can no longer write or journal a call.
    await expect(recorder.emit({ type: "text_delta", text: "b" })).rejects.toBeInstanceOf(LeaseLostError);
    await expect(
      recorder.callStarted({ identity: "id-9", step: 0, position: 0, callId: "c9", tool: "pay", arguments: {} }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await listJournal(db, "t")).toEqual([]);
    expect((await listTrace(db, ["t"])).events.map((e) => e.data)).toEqual([{ text: "a" }]);
  });

  it("skips the fence's read only while a lease this process committed holds, and reads again once it expired", async () => {
    const { db } = await fixture();
    const hijack = () =>
      db.client.prepare("update checkpoints set runner_instance = 'ins_other' where turn_id = 't'").run();
    markTurnActive("t");
    try {
      const recorder = await TurnRecorder.open(db, "t", "s", { lease: { instance: "ins_old" } });
      // Known held for a minute: nobody can claim it before then, so the write needs no read.
      noteLeaseHeld("t", Date.now() + 60_000);
      hijack();
      await recorder.emit({ type: "text_delta", text: "a" });
      markTurnInactive("t");
      markTurnActive("t");
      // Known only until a moment ago: the fence reads the row, and finds it someone else's.
      noteLeaseHeld("t", Date.now() - 1);
      await expect(recorder.emit({ type: "text_delta", text: "b" })).rejects.toBeInstanceOf(LeaseLostError);
      expect((await listTrace(db, ["t"])).events.map((e) => e.data)).toEqual([{ text: "a" }]);
    } finally {
      markTurnInactive("t");
    }
  });

  it("gives a stopping owner's leases on running turns up: taken over at once, its writes pass until then", async () => {
    const { db } = await fixture(); // t: running, owned by ins_old until 10 000
    await insertRunningTurn(db, "done", { instance: "ins_old", leaseUntil: 10_000 });
    db.client.prepare("update turns set status = 'completed' where id = 'done'").run();
    expect(await releaseLeases(db, { instance: "ins_other", now: 5_000 })).toBe(0); // not its lease
    expect(await listResumableTurns(db, 5_000)).toEqual([]);
    expect(await releaseLeases(db, { instance: "ins_old", now: 5_000 })).toBe(1);
    expect(await getCheckpoint(db, "t")).toMatchObject({ runnerInstance: "ins_old", leaseExpiresAt: 5_000 });
    expect((await getCheckpoint(db, "done"))?.leaseExpiresAt).toBe(10_000); // an ended turn is left as it is
    expect(await listResumableTurns(db, 5_000)).toEqual([{ id: "t", status: "running" }]);
    expect(await releaseLeases(db, { instance: "ins_old", now: 5_000 })).toBe(0); // nothing left to give up
    // Until someone takes it over, the owner (still running the turn) writes as before.
    const recorder = await TurnRecorder.open(db, "t", "s", { lease: { instance: "ins_old" } });
    await recorder.emit({ type: "text_delta", text: "a" });
    expect(
      await claimTurn(db, { turnId: "t", instance: "ins_new", pid: 1, now: 5_000, leaseMs: 15_000, from: "running" }),
    ).toBe(true);
    await expect(recorder.emit({ type: "text_delta", text: "b" })).rejects.toBeInstanceOf(LeaseLostError);
    expect((await listTrace(db, ["t"])).events.map((e) => e.data)).toEqual([{ text: "a" }]);
  });

  it("closes a turn whose recording failed only while this instance still owns it", async () => {
    const { db } = await fixture(); // running, owned by ins_old
    const fail = (instance: string) => failTurnIfOwned(db, { id: "t", instance, error: "boom", now: 5 });
    expect(await fail("ins_other")).toBe(false); // taken over: left to its owner
    expect(await getTurn(db, "t")).toMatchObject({ status: "running", error: null });
    expect(await fail("ins_old")).toBe(true);
    expect(await getTurn(db, "t")).toMatchObject({ status: "failed", error: "boom", endedAt: 5 });
    expect(await fail("ins_old")).toBe(false); // already ended
  });

  it("lists as resumable a running turn whose lease expired and a waiting turn with no pending approval", async () => {
    const { db } = await fixture();
    expect(await listResumableTurns(db, 9_000)).toEqual([]);
    expect(await listResumableTurns(db, 10_000)).toEqual([{ id: "t", status: "running" }]);
    const gate = createApprovalGate(db, {
      turnId: "t",
      sessionId: "s",
      tools: new Set(["pay"]),
      ttlS: 60,
      now: () => 1_000,
    });
    await gate.check(request(0));
    db.client.prepare("update turns set status = 'waiting'").run();
    expect(await listResumableTurns(db, 10_000)).toEqual([]); // its approval is pending until 61 000
    expect(await listResumableTurns(db, 61_000)).toEqual([{ id: "t", status: "waiting" }]);
  });
});

describe("turn prompt", () => {
  it("adds skills, memories and a capped list of deferred tools (first line of each) to the instructions", () => {
    const deferred = Array.from({ length: MAX_LISTED_DEFERRED + 5 }, (_, i) => ({
      name: `t${i}`,
      description: `does ${i}\nmore detail`,
    }));
    const text = turnInstructions({
      instructions: "Be brief.",
      skills: [{ name: "refunds", description: "How to refund" }],
      memories: ["likes tea"],
      deferred,
    })!;
    expect(text.startsWith("Be brief.\n\nSkills you can load with load_skill:\n- refunds: How to refund\n\n")).toBe(
      true,
    );
    expect(text).toContain('<memories>\n"likes tea"\n</memories>');
    expect(text).toContain("- t0: does 0\n");
    expect(text).not.toContain("more detail");
    expect(text).not.toContain(`- t${MAX_LISTED_DEFERRED}:`);
    expect(text).toContain("… and 5 more: search for them with tool_search");
    expect(turnInstructions({ instructions: " ", skills: [], memories: [], deferred: [] })).toBeUndefined();
    expect(firstLine("x".repeat(200))).toHaveLength(161);
  });
});
