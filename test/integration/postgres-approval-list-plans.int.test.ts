/**
 * The approval lists on PostgreSQL, planned by the real server over 20,000 approvals: GET
 * /v1/approvals (every approval, or one status) reads the oldest through an index in list
 * order instead of sorting every approval ever kept; a pinned key's tenant gets its own
 * approvals, oldest first.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db/database";
import { upsertAgent } from "@/db/queries/agents";
import { listApprovals } from "@/db/queries/approvals";
import type { ApprovalStatus } from "@/db/schema";
import { agentRow } from "../support/agent-row";
import { plannedDatabase, plansOf, scannedTables, sentBy, sorts } from "../support/postgres-plans";
import { testPostgresUrl } from "../support/test-database";

const APPROVALS = 20_000;
const SESSIONS = 200;
const TENANTS = 10;
const STATUSES: ApprovalStatus[] = ["pending", "approved", "rejected", "expired"];

type Params = NonNullable<Parameters<typeof listApprovals>[1]>;

describe.skipIf(!testPostgresUrl())("the approval lists on PostgreSQL", () => {
  let db: Db;
  let admin: pg.Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, admin, close } = await plannedDatabase(async (db) => {
      await upsertAgent(db, agentRow("a1"));
      await db.execute(
        sql`insert into sessions (id, agent_id, tenant, created_at, updated_at) select 's' || i, 'a1', 't' || (i % ${TENANTS}::int), 0, 0 from generate_series(0, ${SESSIONS - 1}::int) as i`,
      );
      await db.execute(
        sql`insert into turns (id, session_id, seq, status, user_message, started_at) select 'turn_' || i, 's' || (i % ${SESSIONS}::int), i, 'waiting', 'm', i from generate_series(0, ${APPROVALS - 1}::int) as i`,
      );
      await db.execute(
        sql`insert into approvals (id, turn_id, session_id, call_id, identity, tool, arguments, status, created_at, expires_at) select 'apr_' || lpad(i::text, 5, '0'), 'turn_' || i, 's' || (i % ${SESSIONS}::int), 'call_0', 'id', 'refund', '{}', (array['pending','approved','rejected','expired'])[i % 4 + 1], i, 100000 + i from generate_series(0, ${APPROVALS - 1}::int) as i`,
      );
    }));
  });

  afterAll(() => close?.());

  it.each<[string, Params]>([
    ["every approval", {}],
    ["one status", { status: "approved" }],
  ])("%s: no scan of the table, no sort", async (_, params) => {
    const sent = await sentBy(() => listApprovals(db, params), /"approvals"/);
    expect(sent).toHaveLength(1);
    const { custom, generic } = await plansOf(admin, sent[0]!);
    for (const plan of [custom, generic]) {
      expect(scannedTables(plan)).not.toContain("approvals");
      expect(sorts(plan)).toBe(false);
    }
  });

  it.each<[string, Params]>([
    ["every approval", {}],
    ["one status", { status: "approved" }],
    ["a pinned key's tenant", { sessions: { tenant: "t3" } }],
    ["a pinned key's tenant, one status", { status: "pending", sessions: { tenant: "t4" } }],
  ])("%s: the oldest 500 of what the filter names", async (_, params) => {
    const expected = Array.from({ length: APPROVALS }, (_, i) => i)
      .filter(
        (i) =>
          (params.status === undefined || STATUSES[i % 4] === params.status) &&
          (params.sessions?.tenant === undefined || `t${(i % SESSIONS) % TENANTS}` === params.sessions.tenant),
      )
      .slice(0, 500)
      .map((i) => `apr_${String(i).padStart(5, "0")}`);
    expect(expected.length).toBeGreaterThan(0);
    expect((await listApprovals(db, params)).map((a) => a.id)).toEqual(expected);
  });
});
