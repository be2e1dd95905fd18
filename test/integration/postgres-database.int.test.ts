/**
 * The PostgreSQL form of the Db against a real server (the throwaway cluster of the test
 * script; the SQLite run of the suite skips this file, the PostgreSQL run always has it):
 * migrations under the advisory lock when instances start at once, notifications across
 * instances only on commit, transaction-scoped locks, and a clear error when the server
 * cannot be reached.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { openPostgres } from "@/db/client";
import type { Db } from "@/db/database";
import { databaseErrorCode } from "@/db/database-errors";
import { migrationState } from "@/db/queries/database-info";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn, listTurns, updateTurnStatus } from "@/db/queries/turns";
import { insertMessages, listMessages } from "@/db/queries/transcripts";
import { upsertAgent } from "@/db/queries/agents";
import { getCheckpoint, saveCheckpoint } from "@/db/queries/checkpoints";
import { insertEvent, insertToolCall, listTrace } from "@/db/queries/traces";
import { countBlockedCalls, listCalls, listRecentBlockedCalls } from "@/db/queries/overview";
import { groupCommit, type FlushCheck } from "@/lib/services/turns/group-commit";
import { agentRow } from "../support/agent-row";
import { freePort } from "../support/server";
import { createTestDatabase, testPostgresUrl } from "../support/test-database";

const opened: Db[] = [];
const open = (url: string) => {
  const db = openPostgres(url, { poolSize: 4 });
  opened.push(db);
  return db;
};
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
});

/** A fresh database with one session ("ses_held") and its turn ("turn_held"), for the held-rows tests. */
async function withHeldTurn(): Promise<Db> {
  const db = open(await createTestDatabase());
  await upsertAgent(db, agentRow("held"));
  await insertSession(db, { id: "ses_held", agentId: "held", tenant: null });
  await insertTurn(db, { id: "turn_held", sessionId: "ses_held", userMessage: "go" });
  return db;
}

describe.skipIf(!testPostgresUrl())("PostgresDatabase against a real server", () => {
  it("three instances starting at once on an empty database migrate it once, under the lock", async () => {
    const url = await createTestDatabase();
    const fleet = [open(url), open(url), open(url)];
    await Promise.all(fleet.map((db) => db.ready()));
    for (const db of fleet) expect(await migrationState(db)).toMatchObject({ current: true });
    const [row] = await fleet[0]!.execute<{ n: string }>(sql`select count(*) as n from drizzle.__drizzle_migrations`);
    expect(Number(row?.n)).toBe((await migrationState(fleet[0]!)).shipped);
  });

  it("every copy of the client module in a process shares one pool per URL, so an instance stays within INSIKA_DATABASE_POOL", async () => {
    const url = await createTestDatabase();
    const where = { dataDir: "/nonexistent", INSIKA_DATABASE_URL: url, INSIKA_DATABASE_POOL: 2 };
    // Two copies of the module, as Next.js gives the server's start-up work, routes and pages.
    vi.resetModules();
    const first = (await import("@/db/client")).getDb(where);
    vi.resetModules();
    const second = (await import("@/db/client")).getDb(where);
    expect(second).not.toBe(first);
    await first.ready();
    // The first copy holds both of the pool's connections...
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const holders = [0, 1].map(() =>
      first.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        holding += 1;
        await gate;
      }),
    );
    await vi.waitFor(() => expect(holding).toBe(2));
    // ...so the second copy's statement waits for one of them instead of opening a third.
    const read = second.execute(sql`select 1 as one`).then(() => "answered");
    const early = await Promise.race([read, new Promise((resolve) => setTimeout(() => resolve("waiting"), 300))]);
    expect(early).toBe("waiting");
    release();
    await Promise.all(holders);
    expect(await read).toBe("answered");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ n: string }>(
        "select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
      );
      expect(Number(rows[0]?.n)).toBeLessThanOrEqual(2);
    } finally {
      await admin.end();
    }
    await first.close();
    // Closed for every copy, and forgotten: the next open on the URL starts a new pool.
    await expect(second.execute(sql`select 1`)).rejects.toThrow();
  });

  it("a notification reaches another instance when the transaction commits, never on a rollback", async () => {
    const url = await createTestDatabase();
    const [a, b] = [open(url), open(url)];
    const heard: string[] = [];
    await b.listen("insika_probe", (payload) => heard.push(payload));
    await a
      .transaction(async (tx) => {
        await tx.notify("insika_probe", "rolled-back");
        throw new Error("undo");
      })
      .catch(() => undefined);
    await a.transaction(async (tx) => {
      await tx.notify("insika_probe", "committed");
      // A savepoint's notifications go out with the transaction, unless the savepoint is undone.
      await tx.transaction(async (savepoint) => savepoint.notify("insika_probe", "released"));
      await tx
        .transaction(async (savepoint) => {
          await savepoint.notify("insika_probe", "undone");
          throw new Error("undo the savepoint");
        })
        .catch(() => undefined);
      await tx.notify("insika_probe", "last, with the payload's 'quotes' and \"more\"");
    });
    const deadline = Date.now() + 5_000;
    while (heard.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual(["committed", "released", "last, with the payload's 'quotes' and \"more\""]);
  });

  it("turns started at once on one session from two instances get distinct seqs (the session lock)", async () => {
    const url = await createTestDatabase();
    const [a, b] = [open(url), open(url)];
    await upsertAgent(a, agentRow("seq"));
    await insertSession(a, { id: "ses_seq", agentId: "seq", tenant: null });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        insertTurn(i % 2 ? a : b, { id: `turn_${i}`, sessionId: "ses_seq", userMessage: `m${i}` }),
      ),
    );
    const seqs = (await listTurns(a, "ses_seq")).map((t) => t.seq);
    expect(seqs).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it("stores what a model or tool wrote with a NUL character (which PostgreSQL text cannot hold) as U+FFFD", async () => {
    const db = open(await createTestDatabase());
    await upsertAgent(db, agentRow("nul"));
    await insertSession(db, { id: "ses_nul", agentId: "nul", tenant: null });
    await insertTurn(db, { id: "turn_nul", sessionId: "ses_nul", userMessage: "hi" });
    await insertMessages(db, [
      {
        sessionId: "ses_nul",
        turnId: "turn_nul",
        role: "tool",
        content: "a\u0000b",
        callId: "c",
        tool: "t",
        createdAt: 1,
      },
    ]);
    await updateTurnStatus(db, { id: "turn_nul", status: "completed", content: "x\u0000y" });
    expect((await listMessages(db, "ses_nul")).map((m) => m.content)).toEqual(["hi", "a\uFFFDb"]);
    expect((await listTurns(db, "ses_nul"))[0]?.content).toBe("x\uFFFDy");
  });

  it("a call record with a NUL or a lone surrogate is stored so that PostgreSQL's JSON functions read it: the Overview still answers", async () => {
    const db = open(await createTestDatabase());
    await upsertAgent(db, agentRow("nul"));
    await insertSession(db, { id: "ses_nul", agentId: "nul", tenant: null });
    await insertTurn(db, { id: "turn_nul", sessionId: "ses_nul", userMessage: "hi" });
    const now = Date.now();
    const call = (callId: string, verdict: string) => ({
      turnId: "turn_nul",
      callId,
      tool: "lookup",
      ok: verdict === "allowed",
      startedAt: now,
      durationMs: 1,
      queuedMs: 0,
      // What a hostile backend or model can put in a record: JSON.stringify writes \u0000 and \ud800 escapes.
      record: { arguments: { q: "lone \ud800" }, result: "a\u0000b", egress: { verdict, rule: "private" } },
    });
    await insertToolCall(db, call("direct", "allowed"));
    await db.transaction((tx) => insertToolCall(tx, call("held", "blocked"))); // the held path
    const window = { since: now - 3_600_000, bucketMs: 60_000 };
    expect(await countBlockedCalls(db, window)).toEqual([expect.objectContaining({ tool: "lookup", n: 1 })]);
    expect(await listRecentBlockedCalls(db, { since: window.since, limit: 10 })).toHaveLength(1);
    expect((await listCalls(db, { since: window.since, limit: 10 })).map((c) => c.callId).sort()).toEqual([
      "direct",
      "held",
    ]);
    const trace = await listTrace(db, ["turn_nul"]);
    expect(trace.calls[0]?.record).toMatchObject({ arguments: { q: "lone \uFFFD" }, result: "a\uFFFDb" });
  });

  it("a nested transaction is a savepoint: its failure is undone alone", async () => {
    const db = open(await createTestDatabase());
    await db.execute(sql`create table probe (k int primary key)`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (1)`);
      await expect(
        tx.transaction(async (s) => {
          await s.execute(sql`insert into probe values (2)`);
          await s.execute(sql`insert into probe values (1)`);
        }),
      ).rejects.toThrow();
      await tx.execute(sql`insert into probe values (3)`);
    });
    const rows = await db.execute<{ k: number }>(sql`select k from probe order by k`);
    expect(rows.map((r) => r.k)).toEqual([1, 3]);
  });

  it("holds a transaction's events and transcript rows and inserts them in order at its commit", async () => {
    const db = await withHeldTurn();
    const message = (content: string, extra: Partial<Parameters<typeof insertMessages>[1][number]> = {}) => ({
      sessionId: "ses_held",
      turnId: "turn_held",
      role: "assistant" as const,
      content,
      createdAt: 1,
      ...extra,
    });
    await db.transaction(async (tx) => {
      await insertMessages(tx, [
        message("one, 'quoted'"),
        message("two", { toolCalls: [{ id: "c", name: "t", arguments: "{}" }] }),
      ]);
      await insertEvent(tx, { turnId: "turn_held", seq: 1, type: "text_delta", data: { text: 'a "b"' }, at: 2 });
      await insertMessages(tx, [message("three", { role: "tool", callId: "c", tool: "t" })]);
      await tx.transaction(async (savepoint) => insertMessages(savepoint, [message("four, released")]));
      await tx
        .transaction(async (savepoint) => {
          await insertMessages(savepoint, [message("undone")]);
          throw new Error("undo the savepoint");
        })
        .catch(() => undefined);
      await insertMessages(tx, [message("five")]);
      // Held until the end of their handle or a savepoint on it, whichever first: rows held
      // before a savepoint went in when it opened, its own at its release (a failure there is
      // its own); the last one waits for the commit.
      const before = await tx.execute<{ content: string }>(
        sql`select content from messages where turn_id = 'turn_held' order by id`,
      );
      expect(before.map((r) => r.content)).toEqual(["go", "one, 'quoted'", "two", "three", "four, released"]);
    });
    const stored = await listMessages(db, "ses_held");
    expect(stored.map((m) => [m.content, m.toolCalls, m.callId])).toEqual([
      ["go", null, null],
      ["one, 'quoted'", null, null],
      ["two", [{ id: "c", name: "t", arguments: "{}" }], null],
      ["three", null, "c"],
      ["four, released", null, null],
      ["five", null, null],
    ]);
    expect((await listTrace(db, ["turn_held"])).events.map((e) => e.data)).toEqual([{ text: 'a "b"' }]);
  });

  it("holds a checkpoint's updates (the last of a row wins) and call records with the other rows, all written in one statement at the commit", async () => {
    const db = await withHeldTurn();
    const initial = (await getCheckpoint(db, "turn_held"))!.state;
    const [one, two, three] = [1, 2, 3].map((step) => ({ ...initial, step })) as [
      typeof initial,
      typeof initial,
      typeof initial,
    ];
    const call = (callId: string, ok: boolean) => ({
      turnId: "turn_held",
      callId,
      tool: "lookup",
      ok,
      startedAt: 5,
      durationMs: 7,
      queuedMs: 0,
      record: { tool: "lookup", note: 'it said "no" \u0000 \\ ☃' },
    });
    const sent = vi.spyOn(pg.Client.prototype, "query");
    await db.transaction(async (tx) => {
      await saveCheckpoint(tx, { turnId: "turn_held", state: one, messages: [], now: 10 });
      await insertToolCall(tx, call("c1", true));
      await insertEvent(tx, { turnId: "turn_held", seq: 1, type: "tool_result", data: { ok: true }, at: 11 });
      await saveCheckpoint(tx, { turnId: "turn_held", state: two, messages: [], now: 12 });
      await insertToolCall(tx, call("c2", false));
      await tx.notify("insika_held_test", "written");
      expect((await getCheckpoint(tx, "turn_held"))?.step).toBe(initial.step); // held: not written yet
    });
    const texts = sent.mock.calls.map(([query]) =>
      typeof query === "string" ? query : (query as { text: string }).text,
    );
    sent.mockRestore();
    // begin, the read above, one statement for everything held and the notification, commit.
    expect(texts).toHaveLength(4);
    for (const part of [/^with /, /insert into events/, /insert into tool_calls/, /update checkpoints/, /pg_notify/])
      expect(texts[2]).toMatch(part);
    expect(await getCheckpoint(db, "turn_held")).toMatchObject({ step: 2, state: two, updatedAt: 12 });
    const trace = await listTrace(db, ["turn_held"]);
    // Quotes, backslashes and non-ASCII text kept; the NUL stored as U+FFFD (storableJson).
    const stored = { tool: "lookup", note: 'it said "no" \uFFFD \\ ☃' };
    expect(trace.calls.map((c) => [c.callId, c.ok, c.record])).toEqual([
      ["c1", true, stored],
      ["c2", false, stored],
    ]);
    // A savepoint's held update is written at its release, and forgotten when it is undone.
    await db.transaction(async (tx) => {
      await tx.transaction(async (savepoint) =>
        saveCheckpoint(savepoint, { turnId: "turn_held", state: three, messages: [] }),
      );
      await tx
        .transaction(async (savepoint) => {
          await saveCheckpoint(savepoint, { turnId: "turn_held", state: one, messages: [] });
          throw new Error("undo the savepoint");
        })
        .catch(() => undefined);
    });
    expect((await getCheckpoint(db, "turn_held"))?.step).toBe(3);
  });

  it("a held row that fails at the commit fails only its own write of a group-commit flush", async () => {
    const db = await withHeldTurn();
    const event = (turnId: string, seq: number) => ({ turnId, seq, type: "text_delta", data: { seq }, at: seq });
    const settled = await Promise.allSettled([
      groupCommit(db, (tx) => insertEvent(tx, event("turn_held", 1))),
      groupCommit(db, (tx) => insertEvent(tx, event("turn_missing", 2))), // a foreign key the commit refuses
      groupCommit(db, (tx) => insertEvent(tx, event("turn_held", 3))),
    ]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((await listTrace(db, ["turn_held"])).events.map((e) => e.seq)).toEqual([1, 3]);
  });

  it("a flush runs its turns' writes side by side on the pipelined connection, each turn's in order; a refused one fails alone", async () => {
    const db = open(await createTestDatabase());
    await db.execute(sql`create table lanes_t (turn text not null, seq integer not null, primary key (turn, seq))`);
    const fence = (key: string): FlushCheck => ({
      name: "test_fence",
      key,
      passing: async (_tx, keys) => new Set(keys),
      refuse: (k) => new Error(`refused ${k}`),
    });
    // Each write reads the turn's last seq, then inserts the next: right only if the turn's
    // writes run in their order, each after the one before. A sequence (never rolled back)
    // counts the writes' runs: a flush run again after a failure would run them twice.
    await db.execute(sql`create sequence lanes_runs`);
    const next = (turn: string) =>
      groupCommit(
        db,
        async (tx) => {
          await tx.execute(sql`select nextval('lanes_runs')`);
          const [last] = await tx.execute<{ n: number }>(
            sql`select coalesce(max(seq), 0)::int as n from lanes_t where turn = ${turn}`,
          );
          await tx.execute(sql`insert into lanes_t values (${turn}, ${last!.n + 1})`);
        },
        { check: fence(turn) },
      );
    const duplicate = () =>
      groupCommit(db, (tx) => tx.execute(sql`insert into lanes_t values ('t1', 1)`), { check: fence("t1") });
    const queued = [next("t1"), next("t2"), next("t1"), next("t3"), next("t2"), next("t1"), next("t3")];
    const seeded = await Promise.allSettled(queued); // one flush: three lanes
    expect(seeded.map((s) => s.status)).toEqual(Array(7).fill("fulfilled"));
    const [runs] = await db.execute<{ n: string }>(sql`select last_value as n from lanes_runs`);
    expect(Number(runs!.n)).toBe(7); // each write ran once: no failure, no second run
    const settled = await Promise.allSettled([next("t2"), duplicate(), next("t3"), next("t1")]);
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(databaseErrorCode((settled[1] as PromiseRejectedResult).reason)).toBe("23505"); // unique violation
    const rows = await db.execute<{ turn: string; seqs: number[] }>(
      sql`select turn, array_agg(seq order by seq) as seqs from lanes_t group by turn order by turn`,
    );
    expect(rows).toEqual([
      { turn: "t1", seqs: [1, 2, 3, 4] },
      { turn: "t2", seqs: [1, 2, 3] },
      { turn: "t3", seqs: [1, 2, 3] },
    ]);
  });

  it("a transaction whose statement failed, the error caught, does not report a commit; its connection goes back to the pool", async () => {
    const db = open(await createTestDatabase()); // a pool of 4
    await db.execute(sql`create table swallowed_t (k integer primary key)`);
    for (let i = 0; i < 6; i += 1) {
      const attempt = db.transaction(async (tx) => {
        await tx.execute(sql`insert into swallowed_t values (1)`);
        await tx.execute(sql`insert into swallowed_t values (1)`).catch(() => undefined); // swallowed
      });
      await expect(attempt).rejects.toThrow(/commit was answered with ROLLBACK/);
    }
    // Nothing of them was committed, and the pool still serves (6 failures, 4 connections).
    await db.transaction((tx) => tx.execute(sql`insert into swallowed_t values (2)`), { relaxed: true });
    const rows = await db.execute<{ k: number }>(sql`select k from swallowed_t order by k`);
    expect(rows).toEqual([{ k: 2 }]);
  });

  it("an unreachable server is a clear error within seconds, its password never shown", async () => {
    const port = await freePort(); // nothing listens there
    const db = open(`postgres://insika:hunter2@127.0.0.1:${port}/insika`);
    const started = Date.now();
    const error = (await db.ready().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      new RegExp(`^cannot connect to PostgreSQL at postgres://insika:\\*\\*\\*@127\\.0\\.0\\.1:${port}/insika`),
    );
    expect(error.message).not.toContain("hunter2");
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});
