/**
 * What a long session costs on PostgreSQL, planned by the real server over 200 sessions of 100
 * turns (20,000 turns, 60,000 messages): GET /v1/sessions/:id reads its page of turns through
 * turns_session_seq in seq order and their messages through messages_turn, and a turn start
 * finds the session's last seq and whether it is busy through turns_session_seq and
 * turns_unfinished. Neither reads the session's other turns, so neither costs more as the
 * session or the database grows.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/database";
import { upsertAgent } from "@/db/queries/agents";
import { insertTurn } from "@/db/queries/turns";
import { getTranscript } from "@/lib/services/sessions/sessions";
import { agentRow } from "../support/agent-row";
import { nodesOf, plannedDatabase, plansOf, scannedTables, sentBy, sorts } from "../support/postgres-plans";
import { testPostgresUrl } from "../support/test-database";

const SESSIONS = 200;
const TURNS = 20_000;

describe.skipIf(!testPostgresUrl())("a long session on PostgreSQL", () => {
  let db: Db;
  let admin: pg.Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, admin, close } = await plannedDatabase(async (db) => {
      await upsertAgent(db, agentRow("a1"));
      await db.execute(
        sql`insert into sessions (id, agent_id, tenant, created_at, updated_at) select 's' || i, 'a1', null, 0, 0 from generate_series(0, ${SESSIONS - 1}::int) as i`,
      );
      // Turn i is turn number i / SESSIONS + 1 of session i % SESSIONS.
      await db.execute(
        sql`insert into turns (id, session_id, seq, status, user_message, started_at) select 'turn_' || i, 's' || (i % ${SESSIONS}::int), i / ${SESSIONS}::int + 1, 'completed', 'm' || i, i from generate_series(0, ${TURNS - 1}::int) as i`,
      );
      await db.execute(
        sql`insert into messages (session_id, turn_id, role, content, created_at) select 's' || (i % ${SESSIONS}::int), 'turn_' || i, r.role, r.role || i, i from generate_series(0, ${TURNS - 1}::int) as i, (values ('user'), ('assistant'), ('tool')) as r(role) order by i`,
      );
    }));
  });

  afterAll(() => close?.());

  it("reads the page's turns in seq order and their messages by index: no scan, no sort of the turns", async () => {
    const page = { afterSeq: 40, limit: 20 };
    const sent = await sentBy(() => getTranscript(db, "s7", page), /from "(turns|messages)"/);
    expect(sent).toHaveLength(2);
    for (const query of sent) {
      const { custom, generic } = await plansOf(admin, query);
      for (const plan of [custom, generic]) {
        expect(scannedTables(plan)).toEqual([]);
        if (query.text.includes('from "turns"')) expect(sorts(plan)).toBe(false);
      }
    }
  });

  it("answers the page's turns and their messages, in order, and the next page's cursor", async () => {
    const transcript = await getTranscript(db, "s7", { afterSeq: 40, limit: 20 });
    const seqs = Array.from({ length: 20 }, (_, i) => 41 + i);
    expect(transcript.turns.map((t) => t.seq)).toEqual(seqs);
    const turnIds = seqs.map((seq) => `turn_${(seq - 1) * SESSIONS + 7}`);
    expect(transcript.turns.map((t) => t.id)).toEqual(turnIds);
    expect(transcript.messages.map((m) => m.turn_id)).toEqual(turnIds.flatMap((id) => [id, id, id]));
    expect(transcript.next_after_seq).toBe(60);
    const last = await getTranscript(db, "s7", { afterSeq: 90, limit: 20 });
    expect([last.turns.length, last.next_after_seq]).toEqual([10, null]);
  });

  it("a turn start finds the session's last seq and whether it is busy by index", async () => {
    const sent = await sentBy(
      () => insertTurn(db, { id: "turn_new", sessionId: "s9", userMessage: "m", exclusive: true }),
      /max\(t\.seq\)/,
    );
    expect(sent).toHaveLength(1);
    const { custom, generic } = await plansOf(admin, sent[0]!);
    for (const plan of [custom, generic]) {
      // (The session's own row may come from a scan of this test's 200 sessions: a few pages.)
      expect(scannedTables(plan)).not.toContain("turns");
      const indexes = nodesOf(plan).flatMap((node) => (node["Index Name"] ? [node["Index Name"]] : []));
      expect(indexes).toEqual(expect.arrayContaining(["turns_session_seq", "turns_unfinished"]));
    }
    const turn = await db.get(
      db.orm
        .select()
        .from(db.t.turns)
        .where(sql`id = 'turn_new'`),
    );
    expect(turn?.seq).toBe(101);
  });
});
