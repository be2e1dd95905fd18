import type { ModelToolSpec } from "./ports";

/**
 * The tools a turn offers the model: the policy's list, plus what tool_search promoted during
 * the turn (offered from the next request on; an offered name keeps its first spec).
 */
export class OfferedTools {
  readonly #byName: Map<string, ModelToolSpec>;
  readonly #promoted: ModelToolSpec[] = [];

  constructor(tools: readonly ModelToolSpec[]) {
    this.#byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  promote(tools: readonly ModelToolSpec[]): void {
    for (const tool of tools) {
      if (this.#byName.has(tool.name)) continue;
      this.#byName.set(tool.name, tool);
      this.#promoted.push(tool);
    }
  }

  /** What the next model request is offered. */
  specs(): ModelToolSpec[] {
    return [...this.#byName.values()];
  }

  /** The names offered now; a batch checks its calls against this snapshot. */
  names(): ReadonlySet<string> {
    return new Set(this.#byName.keys());
  }

  /** Promoted so far this turn (for the checkpoint). */
  get promoted(): readonly ModelToolSpec[] {
    return this.#promoted;
  }
}
