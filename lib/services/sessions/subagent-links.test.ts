import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { listChildTurns } from "@/db/queries/subagent-lineage";
import { insertTurn } from "@/db/queries/turns";
import { agentRow } from "@/test/support/agent-row";
import { planOf, statementsOf } from "@/test/support/sqlite-plans";
import { subagentLinks } from "./subagent-links";

async function seeded() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a1"));
  for (const s of ["parent_s", "child_s", "other_s"]) await insertSession(db, { id: s, agentId: "a1", tenant: null });
  await insertTurn(db, { id: "root", sessionId: "parent_s", userMessage: "go", now: 1 });
  await insertTurn(db, { id: "child2", sessionId: "other_s", userMessage: "two", parentTurnId: "root", now: 3 });
  await insertTurn(db, { id: "child1", sessionId: "child_s", userMessage: "one", parentTurnId: "root", now: 2 });
  return db;
}

describe("subagentLinks", () => {
  it("maps each parent a page names to its session (null when gone), and each turn to the turns it started", async () => {
    const db = await seeded();
    const page = [
      { id: "child1", parent_turn_id: "root" },
      { id: "elsewhere", parent_turn_id: "deleted_turn" },
      { id: "child2", parent_turn_id: "root" },
    ];
    const links = await subagentLinks(db, page);
    expect([...links.parentSessions]).toEqual([
      ["root", "parent_s"],
      ["deleted_turn", null],
    ]);
    expect(links.children.size).toBe(0);
    const fromRoot = await subagentLinks(db, [{ id: "root", parent_turn_id: null }]);
    expect(fromRoot.parentSessions.size).toBe(0);
    expect(fromRoot.children.get("root")).toEqual([
      { id: "child1", sessionId: "child_s", status: "running" },
      { id: "child2", sessionId: "other_s", status: "running" },
    ]);
  });

  it("reads the child turns through turns_parent, not a scan of turns", async () => {
    const db = await seeded();
    const [read] = await statementsOf(db, () => listChildTurns(db, ["root", "x"]));
    expect(planOf(db, read!).join(" ")).toContain("INDEX turns_parent");
  });
});
