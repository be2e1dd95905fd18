/**
 * The executor a turn runs with: system tools answered here, every other tool handed to the
 * catalog executor (catalog-executor.ts), plus the side-effect answer resume needs (DESIGN D9).
 */
import type { ToolCallRequest, ToolExecutor, ToolOutcome } from "@/lib/engine/ports";
import type { Catalog } from "@/lib/services/tools/catalog";
import type { SystemTools } from "./system-tools";

/** Wraps the catalog executor with the turn's system tools and `sideEffect`. */
export function createTurnExecutor(base: ToolExecutor, catalog: Catalog, system: SystemTools): ToolExecutor {
  return {
    // Anything this cannot vouch for counts as side-effecting: resume then never re-sends it.
    sideEffect(tool: string): boolean {
      if (system.has(tool)) return system.sideEffect(tool);
      const entry = catalog.entries.get(tool);
      if (!entry || entry.status !== "ok") return true;
      return entry.kind === "code" ? entry.code.sideEffect : entry.definition.side_effect;
    },
    execute(request: ToolCallRequest): Promise<ToolOutcome> {
      return system.has(request.tool) ? system.run(request) : base.execute(request);
    },
  };
}
