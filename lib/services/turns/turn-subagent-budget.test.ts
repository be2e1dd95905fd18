/**
 * A resumed turn's subagent budget: its own count is the larger of what its checkpoint and
 * the turns table show, and it is chained to its ancestors' budgets rebuilt from the table.
 */
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import type { Db } from "@/db/database";
import { getAgentRecord, upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import type { ResumeState } from "@/lib/engine/ports";
import { agentRow, TEST_AGENT_LIMITS } from "@/test/support/agent-row";
import { resumedSubagentBudget } from "./turn-subagent-budget";

const limits = (max: number) => ({ ...TEST_AGENT_LIMITS, max_subagent_turns: max });

/** A checkpoint whose last step asked for `tasks` children in one spawn_subagents call, still open. */
const openSpawn = (turnId: string, tasks: number): ResumeState =>
  ({
    checkpoint: {
      turnId,
      step: 0,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "c", name: "spawn_subagents", arguments: JSON.stringify({ tasks: Array.from({ length: tasks }) }) },
          ],
        },
      ],
      completedCalls: [],
    },
    completed: [],
    inFlight: [],
  }) as unknown as ResumeState;

/** root (cap `rootCap`) ── mid (cap 10) ── leaf ── grand; every turn in a session of its own. */
async function tree(rootCap: number): Promise<Db> {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("root", { limits: limits(rootCap) }));
  await upsertAgent(db, agentRow("mid", { limits: limits(10) }));
  const turn = async (id: string, agentId: string, parentTurnId?: string) => {
    await insertSession(db, { id: `ses_${id}`, agentId, tenant: null });
    await insertTurn(db, { id, sessionId: `ses_${id}`, userMessage: "go", ...(parentTurnId ? { parentTurnId } : {}) });
  };
  await turn("root", "root");
  await turn("mid", "mid", "root");
  await turn("leaf", "mid", "mid");
  await turn("grand", "mid", "leaf");
  return db;
}

const budgetOf = async (db: Db, turnId: string, agentId: string, resume: ResumeState) =>
  resumedSubagentBudget(db, { turnId, agent: (await getAgentRecord(db, agentId))!, resume });

describe("a resumed turn's subagent budget", () => {
  it("counts its whole subtree from the turns table when that is more than its checkpoint shows", async () => {
    const db = await tree(20);
    // The checkpoint shows one child (mid); the table shows mid's children too.
    const budget = await budgetOf(db, "root", "root", openSpawn("root", 1));
    expect(budget.take(18)).toMatch(/this turn and its subagents may start at most 20 .*3 already started, 18 more/);
    expect(budget.take(17)).toBeUndefined();
  });

  it("keeps its checkpoint's count when that is more (children asked for whose rows were never written)", async () => {
    const db = await tree(20);
    const budget = await budgetOf(db, "grand", "mid", openSpawn("grand", 4));
    expect(budget.take(7)).toMatch(/this turn and its subagents may start at most 10 .*4 already started, 7 more/);
  });

  it("is chained to each ancestor's cap less what the ancestor's subtree already started", async () => {
    const db = await tree(5);
    // root's subtree: mid, leaf, grand (3 of 5); mid's: leaf, grand (2 of 10).
    const budget = await budgetOf(db, "leaf", "mid", openSpawn("leaf", 0));
    expect(budget.take(3)).toMatch(
      /an ancestor turn and its subagents may start at most 5 .*3 already started, 3 more/,
    );
    expect(budget.take(2)).toBeUndefined();
    expect(budget.take(1)).toMatch(/at most 5 .*5 already started/);
  });
});
