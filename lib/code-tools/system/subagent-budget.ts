import type { ResumeState } from "@/lib/engine/ports";

/**
 * How many child turns (spawn_subagent(s)) a turn and all its descendants may still start.
 * Each turn has its own budget (its agent's `limits.max_subagent_turns`) chained to its
 * parent's: a child turn is taken from every budget up to the root, so a subagent cannot
 * escape its parent's cap by having a larger one of its own, and the whole tree is bounded.
 */
export class SubagentBudget {
  #started: number;

  /** `started`: child turns this turn already started in an earlier run (a resume goes on counting from there). */
  constructor(
    readonly max: number,
    private readonly parent?: SubagentBudget,
    started = 0,
  ) {
    this.#started = started;
  }

  /**
   * Takes `count` child turns from this budget and every ancestor's, all or nothing.
   * Returns undefined when taken, else the refusal naming the cap that would be exceeded.
   */
  take(count: number): string | undefined {
    const chain = this.#chain();
    for (const budget of chain) {
      if (budget.#started + count > budget.max) {
        const whose = budget === this ? "this turn and its subagents" : "an ancestor turn and its subagents";
        return `subagent turn limit reached: ${whose} may start at most ${budget.max} child turn(s) (limits.max_subagent_turns); ${budget.#started} already started, ${count} more asked for`;
      }
    }
    for (const budget of chain) budget.#started += count;
    return undefined;
  }

  /** This budget, then each ancestor's up to the root. */
  #chain(): SubagentBudget[] {
    return this.parent ? [this, ...this.parent.#chain()] : [this];
  }
}

/**
 * The child turns a turn being resumed already started: every spawn_subagent(s) call in its
 * checkpoint that completed ok, or that was still open when the run stopped (its children may
 * have started; a resume never runs it again). Counting an open call whose children never
 * started errs on the side of the cap.
 */
export function subagentTurnsStarted(resume: ResumeState): number {
  const ok = new Map(resume.completed.map((c) => [c.callId, c.ok]));
  let started = 0;
  for (const message of resume.checkpoint.messages) {
    if (message.role !== "assistant") continue;
    for (const call of message.toolCalls ?? []) {
      if (call.name !== "spawn_subagent" && call.name !== "spawn_subagents") continue;
      const outcome = ok.get(call.id);
      if (outcome === false) continue; // refused before any child started (limits, bad arguments)
      started += call.name === "spawn_subagent" ? 1 : requestedTasks(call.arguments);
    }
  }
  return started;
}

function requestedTasks(args: string): number {
  try {
    const tasks = (JSON.parse(args) as { tasks?: unknown }).tasks;
    return Array.isArray(tasks) ? tasks.length : 0;
  } catch {
    return 0;
  }
}
