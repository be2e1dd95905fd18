import { SYSTEM_TOOL_NAMES } from "@/lib/tools/types";

const SYSTEM_TOOLS: ReadonlySet<string> = new Set(SYSTEM_TOOL_NAMES);

/**
 * True for the system tools (tool_search, load_skill, remember, spawn_subagent,
 * spawn_subagents). They are not enveloped: they take no concurrency slot and do not count
 * toward max_tool_calls (spec, "Parallel tool calls"); every other name is enveloped.
 */
export function isSystemTool(name: string): boolean {
  return SYSTEM_TOOLS.has(name);
}
