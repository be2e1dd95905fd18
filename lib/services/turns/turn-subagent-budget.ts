/**
 * The subagent budget a turn runs with (SubagentBudget): a new turn's is chained to its
 * parent's live budget; a resumed turn's is rebuilt from the database, chained to budgets
 * rebuilt the same way for each of its ancestors, so a resume does not let a subtree escape
 * the caps above it.
 */
import type { Db } from "@/db/database";
import { subagentLineage } from "@/db/queries/subagent-lineage";
import type { AgentLimits, AgentRow } from "@/db/schema";
import { DEFAULT_LIMITS } from "@/lib/agents/agent-input";
import { SubagentBudget, subagentTurnsStarted } from "@/lib/code-tools/system/subagent-budget";
import type { ResumeState } from "@/lib/engine/ports";

/** The child turns an agent's turn and its descendants may start (`limits.max_subagent_turns`). */
export function subagentTurnCap(limits: AgentLimits | null): number {
  return limits?.max_subagent_turns ?? DEFAULT_LIMITS.max_subagent_turns;
}

/** A new turn's budget: nothing started yet, taken from `parent` too (a child turn's). */
export function newSubagentBudget(agent: AgentRow, parent?: SubagentBudget): SubagentBudget {
  return new SubagentBudget(subagentTurnCap(agent.limits), parent);
}

/**
 * A resumed turn's budget. Each ancestor's is rebuilt as its agent's cap less the turns its
 * subtree has started (the resumed turn's included). An ancestor whose agent row is gone (only
 * a hand edit could: sessions keep their agent's row) gets the default cap; the chain ends
 * below an ancestor whose turn row is gone (subagentLineage). The rebuilt budgets are a
 * snapshot: an ancestor still running elsewhere keeps its own count, and neither side sees
 * what the other starts from then on.
 */
export async function resumedSubagentBudget(
  db: Db,
  params: { turnId: string; agent: AgentRow; resume: ResumeState },
): Promise<SubagentBudget> {
  const [self, ...ancestors] = await subagentLineage(db, params.turnId);
  let parent: SubagentBudget | undefined;
  // From the root down, so each budget is built on its parent's.
  for (const ancestor of ancestors.reverse())
    parent = new SubagentBudget(subagentTurnCap(ancestor.limits), parent, ancestor.subtreeTurns);
  // Each count sees what the other cannot: the checkpoint counts the children of spawn calls
  // still open or whose child turn was never written (taken from the budget all the same),
  // the rows count the children's own descendants, which no checkpoint of this turn holds.
  // The larger errs toward the cap, and is never below what the checkpoint alone would give.
  const started = Math.max(subagentTurnsStarted(params.resume), self?.subtreeTurns ?? 0);
  return new SubagentBudget(subagentTurnCap(params.agent.limits), parent, started);
}
