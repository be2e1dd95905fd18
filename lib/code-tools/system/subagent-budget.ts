/**
 * How many child turns (spawn_subagent(s)) a turn and all its descendants may still start.
 * Each turn has its own budget (its agent's `limits.max_subagent_turns`) chained to its
 * parent's: a child turn is taken from every budget up to the root, so a subagent cannot
 * escape its parent's cap by having a larger one of its own, and the whole tree is bounded.
 */
export class SubagentBudget {
  #started = 0;

  constructor(
    readonly max: number,
    private readonly parent?: SubagentBudget,
  ) {}

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
