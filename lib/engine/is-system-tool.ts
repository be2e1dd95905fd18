import { SYSTEM_TOOL_NAMES } from "@/lib/tools/types";

const SYSTEM_TOOLS: ReadonlySet<string> = new Set(SYSTEM_TOOL_NAMES);

/**
 * True for the system tools (tool_search, load_skill, remember, spawn_subagent,
 * spawn_subagents). They are not enveloped: they take no concurrency slot and never ask the
 * approval gate (spec, "Parallel tool calls"); every other name is enveloped. They do count
 * toward max_tool_calls (see run-tool-batch.ts).
 */
export function isSystemTool(name: string): boolean {
  return SYSTEM_TOOLS.has(name);
}
