/** Model-facing tool specs from the catalog, and the tool_search index per catalog version. */
import type { ModelToolSpec } from "@/lib/engine/ports";
import { ToolSearchIndex } from "@/lib/code-tools/system/tool-search-index";
import type { Catalog } from "./catalog";

/** What the model is told about each named tool: `parameters` verbatim. Unknown or dropped names are skipped. */
export function offeredToolSpecs(catalog: Catalog, names: readonly string[]): ModelToolSpec[] {
  return names.flatMap((name) => {
    const entry = catalog.entries.get(name);
    if (!entry || entry.status !== "ok") return [];
    const parameters = entry.kind === "code" ? entry.code.parameters : entry.definition.parameters;
    return [{ name, description: entry.description, parameters }];
  });
}

// One index per catalog object: a catalog is rebuilt (a new object) whenever its version moves.
const indexes = new WeakMap<Catalog, ToolSearchIndex>();

/** The tool_search index over every usable tool of this catalog (built on first use, then cached). */
export function searchIndexFor(catalog: Catalog): ToolSearchIndex {
  let index = indexes.get(catalog);
  if (!index) {
    const usable = [...catalog.entries.values()].filter((entry) => entry.status === "ok");
    index = new ToolSearchIndex(usable.map((entry) => ({ name: entry.name, description: entry.description })));
    indexes.set(catalog, index);
  }
  return index;
}
