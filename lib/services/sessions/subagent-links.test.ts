import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { countChildTurns, listChildTurns } from "@/db/queries/subagent-lineage";
import { insertTurn } from "@/db/queries/turns";
import { operatorPrincipal } from "@/lib/access/principal";
import { agentRow } from "@/test/support/agent-row";
import { keyPrincipal } from "@/test/support/key-principal";
import { planOf, statementsOf } from "@/test/support/sqlite-plans";
import { CHILD_TURNS_SHOWN, subagentLinks } from "./subagent-links";

const OPERATOR = operatorPrincipal("studio");

/** boss's turn "root" started two subagents' turns: child1 (agent helper), child2 (agent boss). */
async function seeded() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("boss", { subagents: ["helper", "boss"] }));
  await upsertAgent(db, agentRow("helper"));
  await insertSession(db, { id: "parent_s", agentId: "boss", tenant: null });
  await insertSession(db, { id: "child1_s", agentId: "helper", tenant: null });
  await insertSession(db, { id: "child2_s", agentId: "boss", tenant: null });
  await insertTurn(db, { id: "root", sessionId: "parent_s", userMessage: "go", now: 1 });
  await insertTurn(db, { id: "child2", sessionId: "child2_s", userMessage: "two", parentTurnId: "root", now: 3 });
  await insertTurn(db, { id: "child1", sessionId: "child1_s", userMessage: "one", parentTurnId: "root", now: 2 });
  return db;
}

describe("subagentLinks", () => {
  it("links each subagent's turn to its parent's session, and each turn to the turns it started", async () => {
    const db = await seeded();
    const fromChildren = await subagentLinks(db, OPERATOR, [
      { id: "child1", parent_turn_id: "root" },
      { id: "elsewhere", parent_turn_id: "deleted_turn" },
    ]);
    expect([...fromChildren.parents]).toEqual([
      ["root", { sessionId: "parent_s" }],
      ["deleted_turn", "gone"],
    ]);
    expect(fromChildren.children.size).toBe(0);
    const fromRoot = await subagentLinks(db, OPERATOR, [{ id: "root", parent_turn_id: null }]);
    expect(fromRoot.parents.size).toBe(0);
    expect(fromRoot.children.get("root")).toEqual({
      shown: [
        { id: "child1", sessionId: "child1_s", status: "running" },
        { id: "child2", sessionId: "child2_s", status: "running" },
      ],
      started: 2,
    });
  });

  it("gives a key only the links to sessions it may see (a subagent's session is its own agent's)", async () => {
    const db = await seeded();
    const bossOnly = keyPrincipal({ agents: ["boss"] });
    const fromRoot = await subagentLinks(db, bossOnly, [{ id: "root", parent_turn_id: null }]);
    expect(fromRoot.children.get("root")?.shown.map((c) => c.id)).toEqual(["child2"]);
    const helperOnly = keyPrincipal({ agents: ["helper"] });
    const fromChild = await subagentLinks(db, helperOnly, [{ id: "child1", parent_turn_id: "root" }]);
    expect(fromChild.parents.get("root")).toBe("hidden");
    const otherTenant = keyPrincipal({ scopes: ["traces:read"], tenant: "acme" });
    expect((await subagentLinks(db, otherTenant, [{ id: "root", parent_turn_id: null }])).children.get("root")).toEqual(
      {
        shown: [],
        started: 2,
      },
    );
  });

  it("lists at most CHILD_TURNS_SHOWN of a turn's children and counts them all", async () => {
    const db = await seeded();
    for (let i = 0; i < CHILD_TURNS_SHOWN + 5; i++) {
      await insertSession(db, { id: `many_s${i}`, agentId: "helper", tenant: null });
      await insertTurn(db, {
        id: `many${i}`,
        sessionId: `many_s${i}`,
        userMessage: "m",
        parentTurnId: "child2",
        now: 10 + i,
      });
    }
    const links = await subagentLinks(db, OPERATOR, [{ id: "child2", parent_turn_id: "root" }]);
    const many = links.children.get("child2")!;
    expect(many.started).toBe(CHILD_TURNS_SHOWN + 5);
    expect(many.shown.map((c) => c.id)).toEqual(Array.from({ length: CHILD_TURNS_SHOWN }, (_, i) => `many${i}`));
  });

  it("counts and reads the child turns through turns_parent, not a scan of turns", async () => {
    const db = await seeded();
    const reads = await statementsOf(db, async () => {
      await countChildTurns(db, ["root", "x"]);
      await listChildTurns(db, "root", 20);
    });
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      const plan = planOf(db, read).join(" ");
      expect(plan).toContain("INDEX turns_parent");
      expect(plan).not.toMatch(/SCAN turns\b/);
    }
  });
});
