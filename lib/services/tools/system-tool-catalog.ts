/**
 * The system tools as the catalog shows them (DESIGN D13): read-only code
 * tools that a turn is offered when their feature is configured for the agent.
 * They are listed so an operator can see what a refused name ("is already a
 * code tool") collides with, and why an agent is or is not offered one.
 * They are not catalog entries: the policy never offers them by allowlist, so
 * they stay out of getCatalog (only deny applies to them).
 */
import type { Db } from "@/db/database";
import type { AgentRow } from "@/db/schema";
import { MAX_SUBAGENTS_PER_CALL } from "@/lib/code-tools/system/spawn-subagents";
import { LOAD_SKILL_SPEC, REMEMBER_SPEC, TOOL_SEARCH_SPEC, spawnSpecs } from "@/lib/code-tools/system/specs";
import type { ModelToolSpec } from "@/lib/engine/ports";
import { SYSTEM_TOOL_NAMES, type JsonSchema } from "@/lib/tools/types";
import { agentSystemTools, agentToolExposure } from "@/lib/services/agents/agents";

export interface SystemToolInfo {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** remember and spawn_subagent(s) change things; tool_search and load_skill only read. */
  sideEffect: boolean;
  /** When an agent's turn is offered it, in words ("when the agent lists skills"). */
  offeredWhen: string;
}

// The subagent specs name the agent's subagents in an enum; shown for no agent in particular, the enum goes.
const [SPAWN_ONE, SPAWN_MANY] = spawnSpecs([]).map(withoutEmptyEnums) as [ModelToolSpec, ModelToolSpec];

const INFOS: SystemToolInfo[] = [
  info(
    TOOL_SEARCH_SPEC,
    false,
    "when the turn has deferred tools (the agent's tools_deferred names a usable, allowed tool)",
  ),
  info(LOAD_SKILL_SPEC, false, "when the agent lists skills (its skills field)"),
  info(REMEMBER_SPEC, true, "when memory is on for the agent (memory: true)"),
  info(SPAWN_ONE, true, "when the agent lists subagents (its subagents field)"),
  info(
    SPAWN_MANY,
    true,
    `when the agent lists subagents (its subagents field); at most ${MAX_SUBAGENTS_PER_CALL} tasks per call`,
  ),
];

const BY_NAME: ReadonlyMap<string, SystemToolInfo> = new Map(INFOS.map((i) => [i.name, i]));

// A new system tool must be described here too; failing at load names the gap.
for (const name of SYSTEM_TOOL_NAMES) {
  if (!BY_NAME.has(name)) throw new Error(`system tool '${name}' has no catalog description`);
}

/** Every system tool, in a stable order. */
export function listSystemTools(): readonly SystemToolInfo[] {
  return INFOS;
}

/** One system tool by name, or undefined (a Map: no prototype names). */
export function getSystemTool(name: string): SystemToolInfo | undefined {
  return BY_NAME.get(name);
}

export type SystemToolExposure = { status: "offered" | "denied" | "not_allowed"; reason: string };

/** Whether a turn of `agent` is offered system tool `tool`, and why (deny wins, as in a turn). */
export async function systemToolExposure(db: Db, agent: AgentRow, tool: SystemToolInfo): Promise<SystemToolExposure> {
  if (agent.toolsDeny.includes(tool.name)) return { status: "denied", reason: "listed in tools_deny (deny wins)" };
  const hasDeferred = tool.name === "tool_search" ? (await agentToolExposure(db, agent)).deferred.length > 0 : false;
  return agentSystemTools(agent, hasDeferred).includes(tool.name)
    ? { status: "offered", reason: `system tool, offered ${tool.offeredWhen}` }
    : { status: "not_allowed", reason: `not configured: offered only ${tool.offeredWhen}` };
}

function info(spec: ModelToolSpec, sideEffect: boolean, offeredWhen: string): SystemToolInfo {
  return {
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters as JsonSchema,
    sideEffect,
    offeredWhen,
  };
}

function withoutEmptyEnums(spec: ModelToolSpec): ModelToolSpec {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "enum" && Array.isArray(value) && value.length === 0) continue;
      out[key] = strip(value);
    }
    return out;
  };
  return { ...spec, parameters: strip(spec.parameters) as ModelToolSpec["parameters"] };
}
