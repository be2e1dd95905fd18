/**
 * The turn's max_tool_calls count, its one owner: every call the model asks for is taken from
 * it, system tools and refused calls included (a model stuck on a bad call is still bounded),
 * and a call replayed on resume is taken again (it was counted when it was first asked for).
 */
export class CallBudget {
  #used: number;

  /** `used`: calls already counted (on resume, those of the closed steps). */
  constructor(
    readonly max: number,
    used = 0,
  ) {
    this.#used = used;
  }

  /** Counts one call; the limit's message when this call is over it, else undefined. */
  take(): string | undefined {
    this.#used += 1;
    return this.#used > this.max ? `tool call limit exceeded (${this.max})` : undefined;
  }
}
