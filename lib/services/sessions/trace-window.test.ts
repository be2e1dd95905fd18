import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertToolCall } from "@/db/queries/traces";
import { agentRow } from "@/test/support/agent-row";
import { traceWindow } from "./trace-window";

/** Session "s" with 205 turns (t1..t205, seq = n) and a call c150 in turn 150; session "empty" with none. */
async function seeded() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a1"));
  await insertSession(db, { id: "s", agentId: "a1", tenant: null });
  await insertSession(db, { id: "empty", agentId: "a1", tenant: null });
  const turn = db.client.prepare(
    "insert into turns (id, session_id, seq, status, user_message, started_at) values (?, 's', ?, 'completed', 'm', ?)",
  );
  db.client.transaction(() => {
    for (let i = 1; i <= 205; i++) turn.run(`t${i}`, i, i);
  })();
  await insertToolCall(db, {
    turnId: "t150",
    callId: "c150",
    tool: "lookup",
    ok: true,
    startedAt: 150,
    durationMs: 1,
    queuedMs: 0,
    record: {},
  });
  return db;
}

describe("traceWindow", () => {
  it("shows the page of the call or turn a link names, else the page asked for, else the latest", async () => {
    const db = await seeded();
    const start = async (want: Parameters<typeof traceWindow>[2]) => (await traceWindow(db, "s", want)).page.afterSeq;
    expect(await traceWindow(db, "s", {})).toEqual({ page: { afterSeq: 200, limit: 100 }, lastSeq: 205 });
    expect(await start({ turn: "t5" })).toBe(0);
    expect(await start({ turn: "t100" })).toBe(0);
    expect(await start({ turn: "t101" })).toBe(100);
    expect(await start({ call: "c150" })).toBe(100);
    expect(await start({ call: "c150", afterSeq: "0" })).toBe(100);
    expect(await start({ afterSeq: "100" })).toBe(100);
    expect(await start({ afterSeq: "37" })).toBe(37);
    expect(await start({ call: "c_gone", turn: "t150" })).toBe(100);
  });

  it("ignores what names nothing in the session, and a session without turns has one empty page", async () => {
    const db = await seeded();
    const start = async (want: Parameters<typeof traceWindow>[2]) => (await traceWindow(db, "s", want)).page.afterSeq;
    for (const want of [
      { turn: "t_gone" },
      { call: "c_gone" },
      { afterSeq: "-1" },
      { afterSeq: "x" },
      { afterSeq: "" },
    ])
      expect(await start(want)).toBe(200);
    expect(await traceWindow(db, "empty", {})).toEqual({ page: { afterSeq: 0, limit: 100 }, lastSeq: 0 });
  });
});
