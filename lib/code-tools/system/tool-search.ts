import type { ModelToolSpec } from "@/lib/engine/ports";
import type { SystemToolResult } from "./system-tool-result";
import type { ToolSearchIndex } from "./tool-search-index";

export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;
const DESCRIPTION_CHARS = 300;

export interface ToolSearchDeps {
  index: ToolSearchIndex;
  /** The turn's deferred tools: the only ones a search may return and enable. */
  deferred: ReadonlySet<string>;
  /** The model-facing specs of the named tools (what gets promoted). */
  specs(names: string[]): ModelToolSpec[];
}

/**
 * tool_search: ranks the turn's deferred tools for the query and promotes the matches (they
 * are offered from the next model step on, for the rest of the turn). Returns each match's
 * name and description; a query that matches nothing says so rather than failing.
 */
export function runToolSearch(args: { query: string; limit?: number }, deps: ToolSearchDeps): SystemToolResult {
  const limit = Math.min(Math.max(1, args.limit ?? DEFAULT_SEARCH_LIMIT), MAX_SEARCH_LIMIT);
  const matches = deps.index.search(args.query, { limit, accept: (name) => deps.deferred.has(name) });
  if (matches.length === 0) return { value: { matches: [], note: "no available tool matched; try other words" } };
  const names = matches.map((match) => match.name);
  return {
    value: {
      matches: matches.map((match) => ({ name: match.name, description: clip(match.description) })),
      enabled: names,
    },
    promote: deps.specs(names),
  };
}

function clip(text: string): string {
  return text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS)}…` : text;
}
