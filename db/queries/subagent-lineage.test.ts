/**
 * subagentLineage on SQLite, and on PostgreSQL when the test run has a cluster
 * (INSIKA_TEST_DATABASE_URL, scripts/test-postgres.sh): the turn and its ancestors, each with
 * its agent's limits and the turns its subtree started, counted at any depth.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openDb, openPostgres } from "../client";
import type { Db } from "../database";
import { upsertAgent } from "./agents";
import { insertSession } from "./sessions";
import { getTurn, insertTurn } from "./turns";
import { countChildTurns, listChildTurns, subagentLineage } from "./subagent-lineage";
import { agentRow, TEST_AGENT_LIMITS } from "@/test/support/agent-row";
import { planOf, statementsOf } from "@/test/support/sqlite-plans";
import { createTestDatabase, testPostgresUrl } from "@/test/support/test-database";

const limits = (max?: number) => ({
  ...TEST_AGENT_LIMITS,
  ...(max === undefined ? {} : { max_subagent_turns: max }),
});

/**
 * root ─┬─ mid ─┬─ leaf1 ── grand
 *       │       └─ leaf2
 *       └─ other
 * and "orphan", whose parent's row is gone. Each turn in a session of its own, as subagents' are.
 */
async function seedTree(db: Db): Promise<void> {
  await upsertAgent(db, agentRow("root", { limits: limits(2) }));
  await upsertAgent(db, agentRow("mid", { limits: limits(10) }));
  await upsertAgent(db, agentRow("leaf", { limits: limits() }));
  const turn = async (id: string, agentId: string, parentTurnId?: string) => {
    await insertSession(db, { id: `ses_${id}`, agentId, tenant: null });
    await insertTurn(db, { id, sessionId: `ses_${id}`, userMessage: "go", ...(parentTurnId ? { parentTurnId } : {}) });
  };
  await turn("root", "root");
  await turn("mid", "mid", "root");
  await turn("other", "leaf", "root");
  await turn("leaf1", "leaf", "mid");
  await turn("leaf2", "leaf", "mid");
  await turn("grand", "leaf", "leaf1");
  await turn("orphan", "mid", "turn_gone");
}

function lineageCases(open: () => Promise<Db>) {
  it("records the parent on the turn row, null for a turn a client started", async () => {
    const db = await open();
    await seedTree(db);
    expect((await getTurn(db, "leaf1"))?.parentTurnId).toBe("mid");
    expect((await getTurn(db, "root"))?.parentTurnId).toBeNull();
  });

  it("walks from the turn up to the root, counting every subtree at any depth", async () => {
    const db = await open();
    await seedTree(db);
    expect(await subagentLineage(db, "leaf1")).toEqual([
      { turnId: "leaf1", limits: limits(), subtreeTurns: 1 },
      { turnId: "mid", limits: limits(10), subtreeTurns: 3 },
      { turnId: "root", limits: limits(2), subtreeTurns: 5 },
    ]);
    expect(await subagentLineage(db, "root")).toEqual([{ turnId: "root", limits: limits(2), subtreeTurns: 5 }]);
    expect(await subagentLineage(db, "grand")).toHaveLength(4);
  });

  it("ends the walk at a parent whose row is gone, and answers nothing for an unknown turn", async () => {
    const db = await open();
    await seedTree(db);
    expect(await subagentLineage(db, "orphan")).toEqual([{ turnId: "orphan", limits: limits(10), subtreeTurns: 0 }]);
    expect(await subagentLineage(db, "nope")).toEqual([]);
  });

  it("counts and lists a turn's children (the Studio's links), oldest first, at most as many as asked", async () => {
    const db = await open();
    await seedTree(db);
    expect(await countChildTurns(db, ["root", "mid", "grand"])).toEqual(
      new Map([
        ["root", 2],
        ["mid", 2],
      ]),
    );
    expect(await countChildTurns(db, [])).toEqual(new Map());
    const children = await listChildTurns(db, "mid", 1);
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ sessionId: "ses_leaf1", agentId: "leaf", tenant: null, status: "running" });
  });
}

describe("subagentLineage on SQLite", () => {
  lineageCases(async () => openDb(":memory:"));

  it("reads turns by key and through turns_parent, never by a scan of the table", async () => {
    const db = openDb(":memory:");
    await seedTree(db);
    const ran = await statementsOf(db, () => subagentLineage(db, "leaf1"));
    const plans = ran.map((statement) => planOf(db, statement).join(" | "));
    expect(plans.filter((plan) => /SCAN turns\b/.test(plan))).toEqual([]);
    expect(plans.filter((plan) => plan.includes("INDEX turns_parent"))).toHaveLength(1);
  });
});

describe.skipIf(!testPostgresUrl())("subagentLineage on PostgreSQL", () => {
  const opened: Db[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
  });
  lineageCases(async () => {
    const db = openPostgres(await createTestDatabase(), { poolSize: 2 });
    opened.push(db);
    return db;
  });
});
