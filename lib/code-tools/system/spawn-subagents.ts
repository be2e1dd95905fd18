import { gather } from "../gather";
import type { SubagentBudget } from "./subagent-budget";
import type { SystemToolResult } from "./system-tool-result";
import { errorMessage } from "@/lib/errors";

/** spawn_subagents runs at most this many children in one call (the spec's cap). */
export const MAX_SUBAGENTS_PER_CALL = 8;
/** How deep subagents may nest: a turn a client started is depth 0. */
export const MAX_SUBAGENT_DEPTH = 3;

/** How a child turn ended, as the parent's model reads it. */
export interface SubagentResult {
  agent: string;
  session_id?: string;
  turn_id?: string;
  status: "completed" | "halted" | "waiting" | "failed";
  content: string;
  error?: string;
}

export interface SubagentDeps {
  /** The agents this agent lists as subagents. */
  allowed: ReadonlySet<string>;
  /** The depth of the calling turn. */
  depth: number;
  /** The child turns this turn (and its descendants) may still start; absent = unbounded (tests). */
  budget?: SubagentBudget;
  /** Runs one full turn of `agent` in a new session, at depth + 1. */
  run(agent: string, message: string, signal: AbortSignal): Promise<SubagentResult>;
}

interface Task {
  agent: string;
  message: string;
}

/** spawn_subagent: one child turn; its answer (or failure) is the result. */
export async function runSpawnSubagent(args: Task, deps: SubagentDeps, signal: AbortSignal): Promise<SystemToolResult> {
  check([args], deps);
  return { value: await runOne(args, deps, signal) };
}

/**
 * spawn_subagents: up to MAX_SUBAGENTS_PER_CALL child turns in parallel; every child's
 * result comes back in task order (a failed child is a result, not a failure of the call).
 * Everything is checked before any child starts.
 */
export async function runSpawnSubagents(
  args: { tasks: Task[] },
  deps: SubagentDeps,
  signal: AbortSignal,
): Promise<SystemToolResult> {
  if (args.tasks.length > MAX_SUBAGENTS_PER_CALL) {
    throw new Error(`too many subagents in one call: ${args.tasks.length} (max ${MAX_SUBAGENTS_PER_CALL})`);
  }
  check(args.tasks, deps);
  const results = await gather(args.tasks, (task, _index, inner) => runOne(task, deps, inner), {
    concurrency: MAX_SUBAGENTS_PER_CALL,
    signal,
  });
  return { value: { results } };
}

function check(tasks: Task[], deps: SubagentDeps): void {
  if (deps.depth + 1 > MAX_SUBAGENT_DEPTH) throw new Error(`subagent depth limit reached (max ${MAX_SUBAGENT_DEPTH})`);
  for (const task of tasks) {
    if (!deps.allowed.has(task.agent)) throw new Error(`'${task.agent}' is not one of this agent's subagents`);
  }
  // Last, so a call refused for another reason takes nothing from the budget.
  const refusal = deps.budget?.take(tasks.length);
  if (refusal) throw new Error(refusal);
}

async function runOne(task: Task, deps: SubagentDeps, signal: AbortSignal): Promise<SubagentResult> {
  try {
    return await deps.run(task.agent, task.message, signal);
  } catch (error) {
    signal.throwIfAborted();
    return { agent: task.agent, status: "failed", content: "", error: errorMessage(error) };
  }
}
