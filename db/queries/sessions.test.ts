import { describe, expect, it } from "vitest";
import { openDb } from "../client";
import { upsertAgent } from "./agents";
import { agentRow } from "@/test/support/agent-row";
import { updateTurnStatus, insertTurn, listTurns, SessionBusyError } from "./turns";
import { insertEvent, listTurnEvents } from "./traces";
import {
  deleteEmptySession,
  getSession,
  insertSession,
  listSessionSummaries,
  listSessions,
  type SessionFilter,
} from "./sessions";
import { listMessages } from "./transcripts";
import { planOf, statementsOf } from "@/test/support/sqlite-plans";

async function seeded() {
  const db = openDb(":memory:");
  for (const id of ["a1", "a2"]) {
    await upsertAgent(db, agentRow(id));
  }
  return db;
}

describe("listSessionSummaries", () => {
  it("gives each session its turn count and last turn, newest first, in one query", async () => {
    const db = await seeded();
    await insertSession(db, { id: "s_old", agentId: "a1", tenant: null, now: 10 });
    await insertSession(db, { id: "s_empty", agentId: "a2", tenant: "t", now: 20 });
    await insertSession(db, { id: "s_new", agentId: "a1", tenant: null, now: 30 });
    await insertTurn(db, { id: "t1", sessionId: "s_old", userMessage: "first", now: 11 });
    await updateTurnStatus(db, { id: "t1", status: "completed", now: 12 });
    await insertTurn(db, { id: "t2", sessionId: "s_old", userMessage: "second", now: 13 });
    await updateTurnStatus(db, { id: "t2", status: "waiting" });
    await insertTurn(db, { id: "t3", sessionId: "s_new", userMessage: "only", now: 40 });

    const statements: string[] = [];
    const prepare = db.client.prepare.bind(db.client);
    db.client.prepare = ((source: string) => (statements.push(source), prepare(source))) as typeof db.client.prepare;
    const rows = await listSessionSummaries(db);
    expect(statements).toHaveLength(1);

    expect(rows.map((r) => [r.id, r.turnCount, r.lastStatus, r.lastMessage])).toEqual([
      ["s_new", 1, "running", "only"],
      ["s_empty", 0, null, null],
      ["s_old", 2, "waiting", "second"],
    ]);
    expect(rows[1]).toMatchObject({ agentId: "a2", tenant: "t", createdAt: 20, updatedAt: 20 });
  });

  it("filters by agent and applies the limit to sessions", async () => {
    const db = await seeded();
    for (let i = 0; i < 5; i++) {
      await insertSession(db, { id: `s${i}`, agentId: i % 2 ? "a2" : "a1", tenant: null, now: i });
      await insertTurn(db, { id: `t${i}a`, sessionId: `s${i}`, userMessage: `m${i}a`, now: 100 + i });
      await insertTurn(db, { id: `t${i}b`, sessionId: `s${i}`, userMessage: `m${i}b`, now: 200 + i });
    }
    expect((await listSessionSummaries(db, { agentId: "a1" })).map((r) => r.id)).toEqual(["s4", "s2", "s0"]);
    const two = await listSessionSummaries(db, { limit: 2 });
    expect(two.map((r) => [r.id, r.turnCount, r.lastMessage])).toEqual([
      ["s4", 2, "m4b"],
      ["s3", 2, "m3b"],
    ]);
  });
});

describe("the session lists at volume", () => {
  const SESSIONS = 5_000;
  const TENANTS = 500;

  /** 5,000 sessions of two agents and 500 tenants, updated at 5,000 distinct times (and one tie). */
  async function manySessions() {
    const db = await seeded();
    const insert = db.client.prepare(
      "insert into sessions (id, agent_id, tenant, created_at, updated_at) values (?, ?, ?, ?, ?)",
    );
    db.client.transaction(() => {
      for (let i = 0; i < SESSIONS; i++) {
        insert.run(
          `s${String(i).padStart(5, "0")}`,
          i % 2 ? "a1" : "a2",
          `t${i % TENANTS}`,
          i,
          i === 4_999 ? 4_998 : i,
        );
      }
    })();
    db.client.exec("analyze");
    return db;
  }

  const filters: [string, SessionFilter][] = [
    ["every session (the Studio, an admin key)", {}],
    ["one agent", { agentId: "a1" }],
    ["a key's one agent", { agentIds: ["a1"] }],
    ["a key's agents", { agentIds: ["a1", "a2"] }],
    ["one tenant", { tenant: "t7" }],
    ["a pinned key's tenant and agent", { agentIds: ["a1"], tenant: "t7" }],
  ];

  it.each(filters)("%s: the newest sessions come from an index, not from sorting the table", async (_, filter) => {
    const db = await manySessions();
    for (const list of [listSessions, listSessionSummaries]) {
      const ran = await statementsOf(db, () => list(db, filter));
      expect(ran).toHaveLength(1);
      const plan = planOf(db, ran[0]!);
      expect(plan.filter((step) => /^SCAN sessions$/.test(step))).toEqual([]);
      expect(plan.filter((step) => step.startsWith("USE TEMP B-TREE"))).toEqual([]);
    }
  });

  it.each(filters)("%s: newest first, ties by id, only the sessions the filter names", async (_, filter) => {
    const db = await manySessions();
    const expected = Array.from({ length: SESSIONS }, (_, i) => ({
      id: `s${String(i).padStart(5, "0")}`,
      agentId: i % 2 ? "a1" : "a2",
      tenant: `t${i % TENANTS}`,
      updatedAt: i === 4_999 ? 4_998 : i,
    }))
      .filter(
        (s) =>
          (filter.agentId === undefined || s.agentId === filter.agentId) &&
          (filter.agentIds === undefined || filter.agentIds.includes(s.agentId)) &&
          (filter.tenant === undefined || s.tenant === filter.tenant),
      )
      .sort((x, y) => y.updatedAt - x.updatedAt || (y.id < x.id ? -1 : 1))
      .slice(0, 100)
      .map((s) => s.id);
    expect((await listSessions(db, filter)).map((s) => s.id)).toEqual(expected);
    expect((await listSessionSummaries(db, filter)).map((s) => s.id)).toEqual(expected);
  });
});

describe("insertTurn", () => {
  it("finds the session's last seq and whether it is busy by index, not by reading the session's turns", async () => {
    const db = await seeded();
    await insertSession(db, { id: "long", agentId: "a1", tenant: null });
    const turn = db.client.prepare(
      "insert into turns (id, session_id, seq, status, user_message, started_at) values (?, 'long', ?, 'completed', 'm', ?)",
    );
    db.client.transaction(() => {
      for (let i = 1; i <= 2_000; i++) turn.run(`t${i}`, i, i);
    })();
    db.client.exec("analyze");
    const ran = await statementsOf(db, () =>
      insertTurn(db, { id: "t_next", sessionId: "long", userMessage: "next", exclusive: true }),
    );
    const busy = ran.filter((s) => s.source.includes("max(t.seq)"));
    expect(busy).toHaveLength(1);
    const plan = planOf(db, busy[0]!);
    expect(plan.filter((step) => /^SCAN /.test(step))).toEqual([]);
    expect(plan.join(" | ")).toMatch(/USING COVERING INDEX turns_session_seq .*USING INDEX turns_unfinished/);
    expect((await listTurns(db, "long")).at(-1)).toMatchObject({ id: "t_next", seq: 2_001 });
    await expect(
      insertTurn(db, { id: "t_busy", sessionId: "long", userMessage: "x", exclusive: true }),
    ).rejects.toThrow(SessionBusyError);
  });

  it("numbers a session's turns, and with exclusive refuses one while another runs or waits, writing nothing", async () => {
    const db = await seeded();
    await insertSession(db, { id: "s", agentId: "a1", tenant: null });
    expect((await insertTurn(db, { id: "t1", sessionId: "s", userMessage: "one", exclusive: true })).seq).toBe(1);
    await expect(insertTurn(db, { id: "t2", sessionId: "s", userMessage: "two", exclusive: true })).rejects.toThrow(
      SessionBusyError,
    );
    expect((await listTurns(db, "s")).map((t) => t.id)).toEqual(["t1"]);
    expect((await listMessages(db, "s")).map((m) => m.content)).toEqual(["one"]);
    await updateTurnStatus(db, { id: "t1", status: "waiting" });
    await expect(insertTurn(db, { id: "t2", sessionId: "s", userMessage: "two", exclusive: true })).rejects.toThrow(
      SessionBusyError,
    );
    await updateTurnStatus(db, { id: "t1", status: "completed", content: "done" });
    expect((await insertTurn(db, { id: "t2", sessionId: "s", userMessage: "two", exclusive: true })).seq).toBe(2);
    expect((await insertTurn(db, { id: "t3", sessionId: "s", userMessage: "three" })).seq).toBe(3); // not exclusive: no check
  });
});

describe("deleteEmptySession", () => {
  it("deletes a session without turns, and keeps one with turns (a delete would cascade to them)", async () => {
    const db = await seeded();
    await insertSession(db, { id: "s_empty", agentId: "a1", tenant: null });
    await insertSession(db, { id: "s_used", agentId: "a1", tenant: null });
    await insertTurn(db, { id: "t1", sessionId: "s_used", userMessage: "kept" });
    expect(await deleteEmptySession(db, "s_empty")).toBe(true);
    expect(await deleteEmptySession(db, "s_empty")).toBe(false);
    expect(await deleteEmptySession(db, "s_used")).toBe(false);
    expect(await getSession(db, "s_empty")).toBeUndefined();
    expect((await listTurns(db, "s_used")).map((t) => t.id)).toEqual(["t1"]);
  });
});

describe("listTurnEvents", () => {
  it("returns a turn's events after a seq, in order", async () => {
    const db = await seeded();
    await insertSession(db, { id: "s", agentId: "a1", tenant: null });
    await insertTurn(db, { id: "t", sessionId: "s", userMessage: "hi" });
    for (const seq of [3, 1, 2])
      await insertEvent(db, { turnId: "t", seq, type: `e${seq}`, data: { n: seq }, at: seq });
    expect((await listTurnEvents(db, { turnId: "t", afterSeq: 1 })).map((e) => [e.seq, e.type, e.data])).toEqual([
      [2, "e2", { n: 2 }],
      [3, "e3", { n: 3 }],
    ]);
    expect(await listTurnEvents(db, { turnId: "t" })).toHaveLength(3);
  });
});
