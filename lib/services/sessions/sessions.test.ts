import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertEvent, insertToolCall } from "@/db/queries/traces";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { getTrace, getTraceCall } from "./sessions";
import { agentRow } from "@/test/support/agent-row";

async function seeded() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a1"));
  for (const s of ["s1", "s2"]) await insertSession(db, { id: s, agentId: "a1", tenant: null, now: 1 });
  await insertTurn(db, { id: "t1", sessionId: "s1", userMessage: "one", now: 10 });
  await insertTurn(db, { id: "t2", sessionId: "s1", userMessage: "two", now: 20 });
  await insertTurn(db, { id: "t3", sessionId: "s2", userMessage: "other", now: 30 });
  // Rows of the two turns interleaved, and one call id ("c1") used in both turns.
  const call = (turnId: string, callId: string, at: number) =>
    insertToolCall(db, {
      turnId,
      callId,
      tool: `tool_${turnId}`,
      ok: at % 2 === 0,
      startedAt: at,
      durationMs: 3,
      queuedMs: 1,
      record: { status: 200, arguments: { at } },
    });
  await call("t1", "c1", 11);
  await call("t2", "c1", 21);
  await call("t1", "c2", 12);
  await call("t3", "c9", 31);
  await insertEvent(db, { turnId: "t2", seq: 1, type: "turn_started", data: {}, at: 20 });
  await insertEvent(db, { turnId: "t1", seq: 2, type: "tool_call", data: { call_id: "c1" }, at: 11 });
  await insertEvent(db, { turnId: "t1", seq: 1, type: "turn_started", data: {}, at: 10 });
  return db;
}

describe("getTrace", () => {
  it("groups events (by seq) and calls (by record order) under their turn", async () => {
    const trace = await getTrace(await seeded(), "s1");
    expect(trace.turns.map((t) => [t.id, t.events.map((e) => e.seq), t.calls.map((c) => c.call_id)])).toEqual([
      ["t1", [1, 2], ["c1", "c2"]],
      ["t2", [1], ["c1"]],
    ]);
    expect(trace.turns[0]?.events[1]).toEqual({
      seq: 2,
      type: "tool_call",
      at: new Date(11).toISOString(),
      call_id: "c1",
    });
    expect(trace.turns[0]?.calls[0]).toEqual({
      status: 200,
      arguments: { at: 11 },
      call_id: "c1",
      tool: "tool_t1",
      ok: false,
      started_at: new Date(11).toISOString(),
      duration_ms: 3,
      queued_ms: 1,
    });
    expect((await getTrace(await seeded(), "s1", { turnId: "t2" })).turns.map((t) => [t.id, t.calls.length])).toEqual([
      ["t2", 1],
    ]);
  });
});

describe("getTraceCall", () => {
  it("returns one call's record as the trace carries it, narrowed by turn when a call id repeats", async () => {
    const db = await seeded();
    expect(await getTraceCall(db, "s1", "c1")).toEqual((await getTrace(db, "s1")).turns[0]?.calls[0]);
    expect(await getTraceCall(db, "s1", "c1", "t2")).toEqual((await getTrace(db, "s1")).turns[1]?.calls[0]);
    expect(await getTraceCall(db, "s1", "c2")).toMatchObject({ call_id: "c2", arguments: { at: 12 } });
  });

  it("does not reach across sessions or turns", async () => {
    const db = await seeded();
    await expect(getTraceCall(db, "s1", "c9")).rejects.toThrow(/not found/);
    await expect(getTraceCall(db, "s1", "c2", "t2")).rejects.toThrow(/not found/);
    await expect(getTraceCall(db, "s1", "c1", "t3")).rejects.toThrow(/not found/);
    await expect(getTraceCall(db, "nope", "c1")).rejects.toThrow(/session 'nope' not found/);
  });
});
