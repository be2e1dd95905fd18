/**
 * The session lists on PostgreSQL, planned by the real server over 20,000 sessions: every
 * filter a list uses (none for the Studio and an admin key, an agent, a key's agents, a
 * tenant, a pinned key's tenant and agents) reads the newest sessions through an index in
 * list order. Without one, each request of the Studio's sessions page or of GET /v1/sessions
 * read and sorted every session the deployment ever kept (40 ms at 200,000 sessions).
 * Ten tenants of 2,000 sessions each: a tenant of a few sessions is rightly planned as a
 * lookup of those few rows and a sort of them.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/database";
import { upsertAgent } from "@/db/queries/agents";
import { listSessionSummaries, listSessions, type SessionFilter } from "@/db/queries/sessions";
import { agentRow } from "../support/agent-row";
import { plannedDatabase, plansOf, scannedTables, sentBy, sorts } from "../support/postgres-plans";
import { testPostgresUrl } from "../support/test-database";

const SESSIONS = 20_000;
const TENANTS = 10;

const filters: [string, SessionFilter][] = [
  ["every session (the Studio, an admin key)", {}],
  ["one agent", { agentId: "a1" }],
  ["a key's one agent", { agentIds: ["a1"] }],
  ["one tenant", { tenant: "t7" }],
  ["a pinned key's tenant and agent", { agentIds: ["a1"], tenant: "t7" }],
];

describe.skipIf(!testPostgresUrl())("the session lists on PostgreSQL read the newest sessions from an index", () => {
  let db: Db;
  let admin: pg.Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, admin, close } = await plannedDatabase(async (db) => {
      for (const id of ["a1", "a2"]) await upsertAgent(db, agentRow(id));
      await db.execute(
        sql`insert into sessions (id, agent_id, tenant, created_at, updated_at) select 'ses_' || lpad(i::text, 5, '0'), case when i % 2 = 1 then 'a1' else 'a2' end, 't' || (i % ${TENANTS}::int), i, i from generate_series(0, ${SESSIONS - 1}::int) as i`,
      );
    }));
  });

  afterAll(() => close?.());

  it.each(filters)("%s: no scan of the table, no sort", async (_, filter) => {
    for (const list of [listSessions, listSessionSummaries]) {
      const sent = await sentBy(() => list(db, filter), /"sessions"/);
      expect(sent).toHaveLength(1);
      const { custom, generic } = await plansOf(admin, sent[0]!);
      for (const plan of [custom, generic]) {
        expect(scannedTables(plan)).not.toContain("sessions");
        expect(sorts(plan)).toBe(false);
      }
    }
  });

  it.each(filters)("%s: the newest hundred of the sessions the filter names", async (_, filter) => {
    const expected = Array.from({ length: SESSIONS }, (_, i) => i)
      .filter((i) => {
        const agent = i % 2 === 1 ? "a1" : "a2";
        if (filter.agentId !== undefined && agent !== filter.agentId) return false;
        if (filter.agentIds !== undefined && !filter.agentIds.includes(agent)) return false;
        return filter.tenant === undefined || `t${i % TENANTS}` === filter.tenant;
      })
      .reverse()
      .slice(0, 100)
      .map((i) => `ses_${String(i).padStart(5, "0")}`);
    expect((await listSessions(db, filter)).map((s) => s.id)).toEqual(expected);
    expect((await listSessionSummaries(db, filter)).map((s) => s.id)).toEqual(expected);
  });
});
