import { describe, expect, it } from "vitest";
import { openDb } from "../client";
import type { ApprovalStatus } from "../schema";
import { listApprovals } from "./approvals";
import { planOf, statementsOf } from "@/test/support/sqlite-plans";

const APPROVALS = 5_000;
const SESSIONS = 50;
const TENANTS = 10;
const STATUSES: ApprovalStatus[] = ["pending", "approved", "rejected", "expired"];

/**
 * 5,000 approvals in 50 sessions of 10 tenants, in four statuses, asked at distinct times
 * (and one tie, broken by id). Written straight into the tables: the lists only read them.
 */
function manyApprovals() {
  const db = openDb(":memory:");
  db.client.pragma("foreign_keys = OFF");
  const session = db.client.prepare(
    "insert into sessions (id, agent_id, tenant, created_at, updated_at) values (?, 'a1', ?, 0, 0)",
  );
  const approval = db.client.prepare(
    `insert into approvals (id, turn_id, session_id, call_id, identity, tool, arguments, status, created_at, expires_at)
     values (?, ?, ?, 'call_0', ?, 'refund', '{}', ?, ?, ?)`,
  );
  db.client.transaction(() => {
    for (let s = 0; s < SESSIONS; s++) session.run(`s${s}`, `t${s % TENANTS}`);
    for (let i = 0; i < APPROVALS; i++) {
      const createdAt = i === 1 ? 0 : i;
      approval.run(
        `apr_${String(i).padStart(5, "0")}`,
        `turn_${i}`,
        `s${i % SESSIONS}`,
        `id${i}`,
        STATUSES[i % 4],
        createdAt,
        10_000 + i,
      );
    }
  })();
  db.client.exec("analyze");
  return db;
}

type Params = NonNullable<Parameters<typeof listApprovals>[1]>;

const lists: [string, Params][] = [
  ["every approval (GET /v1/approvals)", {}],
  ["one status", { status: "approved" }],
  ["a pinned key's tenant", { sessions: { tenant: "t3" } }],
  ["a pinned key's tenant, one status", { status: "approved", sessions: { tenant: "t3" } }],
  ["one session's pending ones (the playground)", { status: "pending", sessionId: "s8" }],
];

describe("the approval lists at volume", () => {
  it.each(lists)("%s: the oldest come from an index, not from sorting the table", async (_, params) => {
    const db = manyApprovals();
    const ran = await statementsOf(db, () => listApprovals(db, params));
    expect(ran).toHaveLength(1);
    const plan = planOf(db, ran[0]!);
    expect(plan.filter((step) => /^SCAN approvals$/.test(step))).toEqual([]);
    expect(plan.filter((step) => step.startsWith("USE TEMP B-TREE"))).toEqual([]);
  });

  it.each(lists)("%s: oldest first, ties by id, only what the filter names", async (_, params) => {
    const db = manyApprovals();
    const expected = Array.from({ length: APPROVALS }, (_, i) => ({
      id: `apr_${String(i).padStart(5, "0")}`,
      session: `s${i % SESSIONS}`,
      tenant: `t${(i % SESSIONS) % TENANTS}`,
      status: STATUSES[i % 4],
      createdAt: i === 1 ? 0 : i,
    }))
      .filter(
        (a) =>
          (params.status === undefined || a.status === params.status) &&
          (params.sessionId === undefined || a.session === params.sessionId) &&
          (params.sessions?.tenant === undefined || a.tenant === params.sessions.tenant),
      )
      .sort((x, y) => x.createdAt - y.createdAt || (x.id < y.id ? -1 : 1))
      .slice(0, 500)
      .map((a) => a.id);
    expect(expected.length).toBeGreaterThan(0);
    expect((await listApprovals(db, params)).map((a) => a.id)).toEqual(expected);
  });
});
