import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertEvent, insertToolCall } from "@/db/queries/traces";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { getTrace, getTraceCall, getTranscript } from "./sessions";
import { MAX_TURNS_PER_PAGE, traceQuery, transcriptQuery, turnPage } from "./turn-page";
import { planOf, statementsOf } from "@/test/support/sqlite-plans";
import { agentRow } from "@/test/support/agent-row";

/** Every turn of these small sessions: one page of the most a page may hold. */
const ALL_TURNS = { afterSeq: 0, limit: MAX_TURNS_PER_PAGE };

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
    const trace = await getTrace(await seeded(), "s1", { page: ALL_TURNS });
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
    expect(
      (await getTrace(await seeded(), "s1", { turnId: "t2", page: ALL_TURNS })).turns.map((t) => [
        t.id,
        t.calls.length,
      ]),
    ).toEqual([["t2", 1]]);
  });
});

describe("getTraceCall", () => {
  it("returns one call's record as the trace carries it, narrowed by turn when a call id repeats", async () => {
    const db = await seeded();
    expect(await getTraceCall(db, "s1", "c1")).toEqual(
      (await getTrace(db, "s1", { page: ALL_TURNS })).turns[0]?.calls[0],
    );
    expect(await getTraceCall(db, "s1", "c1", "t2")).toEqual(
      (await getTrace(db, "s1", { page: ALL_TURNS })).turns[1]?.calls[0],
    );
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

describe("a session read a page of turns at a time", () => {
  /** Session "long": 7 turns (seq 1..7), each with its user message and one tool call. */
  async function longSession() {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a1"));
    await insertSession(db, { id: "long", agentId: "a1", tenant: null, now: 1 });
    for (let i = 1; i <= 7; i++) {
      await insertTurn(db, { id: `t${i}`, sessionId: "long", userMessage: `m${i}`, now: 10 * i });
      await insertToolCall(db, {
        turnId: `t${i}`,
        callId: `c${i}`,
        tool: "lookup",
        ok: true,
        startedAt: 10 * i,
        durationMs: 1,
        queuedMs: 0,
        record: {},
      });
    }
    return db;
  }

  it("pages the transcript in seq order, with each page's messages and the cursor of the next", async () => {
    const db = await longSession();
    const pages: string[][] = [];
    let after: number | null = 0;
    while (after !== null) {
      const page = await getTranscript(db, "long", { afterSeq: after, limit: 3 });
      pages.push(page.turns.map((t) => t.id));
      expect(page.messages.map((m) => m.turn_id)).toEqual(page.turns.map((t) => t.id));
      expect(page.messages.map((m) => m.content)).toEqual(page.turns.map((t) => t.user_message));
      after = page.next_after_seq;
    }
    expect(pages).toEqual([["t1", "t2", "t3"], ["t4", "t5", "t6"], ["t7"]]);
    // A page that ends exactly at the last turn says there is no next one.
    expect((await getTranscript(db, "long", { afterSeq: 4, limit: 3 })).next_after_seq).toBeNull();
    expect((await getTranscript(db, "long", { afterSeq: 7, limit: 3 })).turns).toEqual([]);
    expect((await getTranscript(db, "long", ALL_TURNS)).turns).toHaveLength(7);
  });

  it("pages the trace the same way; one turn by id ignores the page", async () => {
    const db = await longSession();
    const page = await getTrace(db, "long", { page: { afterSeq: 2, limit: 2 } });
    expect(page.turns.map((t) => [t.id, t.calls.map((c) => c.call_id)])).toEqual([
      ["t3", ["c3"]],
      ["t4", ["c4"]],
    ]);
    expect(page.next_after_seq).toBe(4);
    const one = await getTrace(db, "long", { turnId: "t6", page: { afterSeq: 0, limit: 1 } });
    expect([one.turns.map((t) => t.id), one.next_after_seq]).toEqual([["t6"], null]);
    expect((await getTrace(db, "long", { turnId: "t_other", page: ALL_TURNS })).turns).toEqual([]);
  });

  it("reads a page from the indexes, not by scanning the session's turns or messages", async () => {
    const db = await longSession();
    const ran = await statementsOf(db, () => getTranscript(db, "long", { afterSeq: 3, limit: 2 }));
    const plans = ran.filter((s) => /from "(turns|messages)"/.test(s.source)).map((s) => planOf(db, s));
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.filter((step) => /^SCAN /.test(step))).toEqual([]);
      expect(plan.join(" ")).toMatch(/USING INDEX (turns_session_seq|messages_turn)/);
    }
  });

  it("takes after_seq and limit from the query, and names what is wrong with them", () => {
    expect(turnPage(transcriptQuery.parse({}))).toEqual({ afterSeq: 0, limit: 100 });
    expect(turnPage(transcriptQuery.parse({ after_seq: "40", limit: "1000" }))).toEqual({ afterSeq: 40, limit: 1000 });
    expect(traceQuery.parse({ turn_id: "t1" })).toMatchObject({ turn_id: "t1", limit: 100 });
    for (const [query, problem] of [
      [{ limit: "0" }, /limit/],
      [{ limit: "1001" }, /limit/],
      [{ limit: "2.5" }, /limit/],
      [{ limit: "" }, /limit/],
      [{ after_seq: "-1" }, /after_seq/],
      [{ after_seq: "abc" }, /after_seq/],
      [{ after_seq: "1e400" }, /after_seq/],
      // What Number() would take: an empty value, hex, an exponent, spaces, a sign.
      [{ after_seq: "" }, /after_seq/],
      [{ limit: "0x10" }, /limit/],
      [{ limit: "1e2" }, /limit/],
      [{ after_seq: " 7" }, /after_seq/],
      [{ after_seq: "+5" }, /after_seq/],
      [{ afterseq: "3" }, /afterseq/],
    ] as const) {
      const result = transcriptQuery.safeParse(query);
      expect(result.success).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toMatch(problem);
    }
    expect(traceQuery.safeParse({ turn_id: "" }).success).toBe(false);
  });
});
