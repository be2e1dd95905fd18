/**
 * The statements every turn runs on PostgreSQL, planned by the real server on a table big
 * enough for the planner to choose: they find their rows through an index, never by reading
 * the whole table. A scan costs nothing on an empty test database and grows with every turn
 * an operator keeps; these statements run once per group-commit flush (the lease fence) and
 * once per heartbeat (the lease renewal), or with every flush's checkpoints (the held update),
 * so a scan there slows every turn of the fleet.
 * Each is checked both as the server plans it with its values (an unnamed statement) and as
 * a prepared statement's generic plan (what a pool connection settles on after a few runs).
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/database";
import { upsertAgent } from "@/db/queries/agents";
import { saveCheckpoint } from "@/db/queries/checkpoints";
import { heldLeases, renewLeases } from "@/db/queries/leases";
import { countBlockedCalls, listRecentBlockedCalls } from "@/db/queries/overview";
import { insertSession } from "@/db/queries/sessions";
import { agentRow } from "../support/agent-row";
import { nodesOf, plannedDatabase, plansOf, scannedTables, sentBy } from "../support/postgres-plans";
import { testPostgresUrl } from "../support/test-database";

const TURNS = 3_000;
const INSTANCE = "ins_plans";
const NOW = Date.now();

describe.skipIf(!testPostgresUrl())("the per-turn statements on PostgreSQL use their indexes", () => {
  let db: Db;
  let admin: pg.Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, admin, close } = await plannedDatabase(async (db) => {
      await upsertAgent(db, agentRow("plans"));
      await insertSession(db, { id: "ses_plans", agentId: "plans", tenant: null });
      await db.execute(
        sql`insert into turns (id, session_id, seq, status, user_message, started_at) select 'turn_' || i, 'ses_plans', i, 'running', 'go', 0 from generate_series(1, ${TURNS}::int) as i`,
      );
      await db.execute(
        sql`insert into checkpoints (turn_id, step, state, depth, runner_instance, lease_expires_at, updated_at) select 'turn_' || i, 0, '{}', 0, ${INSTANCE}, 0, 0 from generate_series(1, ${TURNS}::int) as i`,
      );
      // One call per turn, every hundredth refused by the egress guard.
      await db.execute(
        sql`insert into tool_calls (turn_id, call_id, tool, ok, started_at, duration_ms, queued_ms, record) select 'turn_' || i, 'call_1', 'lookup', i % 100 <> 0, ${NOW}::bigint - i * 1000, 5, 0, case when i % 100 = 0 then '{"egress":{"verdict":"blocked","rule":"private"}}' else '{"egress":{"verdict":"allowed"}}' end from generate_series(1, ${TURNS}::int) as i`,
      );
    }));
  });

  afterAll(() => close?.());

  const some = ["turn_17", "turn_1200", "turn_2999", "turn_missing"];

  it("the lease fence of a flush reads the checkpoints of its turns by key", async () => {
    const sent = await sentBy(
      () => db.transaction((tx) => heldLeases(tx, { instance: INSTANCE, turnIds: some })),
      /checkpoints/,
    );
    expect(sent).toHaveLength(1);
    const { custom, generic } = await plansOf(admin, sent[0]!);
    expect(scannedTables(custom)).toEqual([]);
    expect(scannedTables(generic)).toEqual([]);
    // And it still answers: the turns the instance owns among those asked for.
    const held = await db.transaction((tx) => heldLeases(tx, { instance: INSTANCE, turnIds: some }));
    expect([...held].sort()).toEqual(["turn_1200", "turn_17", "turn_2999"]);
  });

  it("a flush's held checkpoint updates find their rows by key", async () => {
    const state = (turnId: string) => ({ turnId, step: 1, messages: [{ role: "user" as const, content: "go" }] });
    const sent = await sentBy(
      () =>
        db.transaction(async (tx) => {
          for (const turnId of ["turn_17", "turn_1200", "turn_2999"])
            await saveCheckpoint(tx, { turnId, state: state(turnId), messages: [], now: 5 });
        }),
      /checkpoints/,
    );
    expect(sent).toHaveLength(1); // the three held, written by the commit's one statement
    expect(sent[0]!.text).toContain("update checkpoints");
    const { custom, generic } = await plansOf(admin, sent[0]!);
    expect(scannedTables(custom)).toEqual([]);
    expect(scannedTables(generic)).toEqual([]);
    const [row] = await db.execute<{ n: string }>(
      sql`select count(*) as n from checkpoints where step = 1 and updated_at = 5`,
    );
    expect(Number(row?.n)).toBe(3);
  });

  it("the Overview finds the calls the egress guard refused through the partial index of them", async () => {
    const [index] = (await admin.query("select indexdef from pg_indexes where indexname = 'tool_calls_blocked'")).rows;
    expect(index?.indexdef).toMatch(/WHERE .*egress,verdict.*= 'blocked'/);
    const since = NOW - 3_600_000;
    const sent = await sentBy(async () => {
      await countBlockedCalls(db, { since, bucketMs: 60_000 });
      await listRecentBlockedCalls(db, { since, limit: 10 });
    }, /tool_calls/);
    expect(sent).toHaveLength(2);
    for (const q of sent) {
      const { custom } = await plansOf(admin, q);
      expect(scannedTables(custom)).not.toContain("tool_calls"); // (sessions, joined, holds one row)
      expect(nodesOf(custom).map((node) => node["Index Name"])).toContain("tool_calls_blocked");
    }
    expect(await countBlockedCalls(db, { since, bucketMs: 60_000 })).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: "lookup" })]),
    );
  });

  it("the heartbeat renews the leases of its turns by key", async () => {
    const sent = await sentBy(() => renewLeases(db, { instance: INSTANCE, turnIds: some, until: 42 }), /checkpoints/);
    expect(sent).toHaveLength(1);
    const { custom, generic } = await plansOf(admin, sent[0]!);
    expect(scannedTables(custom)).toEqual([]);
    expect(scannedTables(generic)).toEqual([]);
    expect(await renewLeases(db, { instance: INSTANCE, turnIds: some, until: 43 })).toBe(3);
  });
});
