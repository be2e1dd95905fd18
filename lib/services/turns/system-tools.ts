/**
 * The system tools of one turn (DESIGN D13), wired to the database: tool_search when the
 * turn has deferred tools, load_skill when the agent lists skills, remember when its memory
 * is on, spawn_subagent(s) when it lists subagents; deny still wins. They are not enveloped
 * (no concurrency slot, no approval) but they count toward max_tool_calls, child turns are
 * capped by limits.max_subagent_turns, and they are traced like any call.
 */
import type { Db } from "@/db/database";
import { insertMemory } from "@/db/queries/memories";
import { getSkill } from "@/db/queries/skills";
import type { AgentRow } from "@/db/schema";
import type { ModelToolSpec, ToolCallRequest, ToolOutcome } from "@/lib/engine/ports";
import { runLoadSkill } from "@/lib/code-tools/system/load-skill";
import { runRemember } from "@/lib/code-tools/system/remember";
import type { SubagentBudget } from "@/lib/code-tools/system/subagent-budget";
import { runSpawnSubagent, runSpawnSubagents, type SubagentResult } from "@/lib/code-tools/system/spawn-subagents";
import { LOAD_SKILL_SPEC, REMEMBER_SPEC, TOOL_SEARCH_SPEC, spawnSpecs } from "@/lib/code-tools/system/specs";
import type { SystemToolResult } from "@/lib/code-tools/system/system-tool-result";
import { runToolSearch } from "@/lib/code-tools/system/tool-search";
import { validateArguments } from "@/lib/tools";
import { clipResult, localCallRecord } from "@/lib/services/tools/local-call-record";
import type { TurnContext } from "@/lib/tools/types";
import { agentSystemTools } from "@/lib/services/agents/agents";
import type { Catalog } from "@/lib/services/tools/catalog";
import { offeredToolSpecs, searchIndexFor } from "@/lib/services/tools/offered-tool-specs";
import { errorMessage } from "@/lib/errors";

/** Memories kept per agent and tenant (older ones are dropped). */
export const MEMORIES_KEPT = 200;

/** Runs one child turn for spawn_subagent(s). */
export type ChildRunner = (agentId: string, message: string, signal: AbortSignal) => Promise<SubagentResult>;

export interface SystemTools {
  /** Specs of the system tools this turn offers. */
  specs: ModelToolSpec[];
  has(name: string): boolean;
  /** remember and spawn_subagent(s) change things; tool_search and load_skill only read. */
  sideEffect(name: string): boolean;
  run(request: ToolCallRequest): Promise<ToolOutcome>;
}

export interface SystemToolsParams {
  agent: AgentRow;
  ctx: TurnContext;
  depth: number;
  catalog: Catalog;
  /** The turn's deferred tools (allowed, not denied, usable). */
  deferred: readonly string[];
  /** The child turns this turn and its descendants may still start (limits.max_subagent_turns). */
  subagentBudget: SubagentBudget;
  runChild: ChildRunner;
}

interface Entry {
  spec: ModelToolSpec;
  sideEffect: boolean;
  run(args: Record<string, unknown>, signal: AbortSignal): SystemToolResult | Promise<SystemToolResult>;
}

/** The system tools a turn of this agent is offered. */
export function createSystemTools(db: Db, params: SystemToolsParams): SystemTools {
  const { agent, catalog } = params;
  const entries = new Map<string, Entry>();
  const enabled = new Set(agentSystemTools(agent, params.deferred.length > 0));
  const add = (spec: ModelToolSpec, sideEffect: boolean, run: Entry["run"]) => {
    if (enabled.has(spec.name)) entries.set(spec.name, { spec, sideEffect, run });
  };

  if (params.deferred.length > 0) {
    const deferred = new Set(params.deferred);
    add(TOOL_SEARCH_SPEC, false, (args) =>
      runToolSearch(args as { query: string; limit?: number }, {
        index: searchIndexFor(catalog),
        deferred,
        specs: (names) => offeredToolSpecs(catalog, names),
      }),
    );
  }
  if (agent.skills.length > 0) {
    const allowed = new Set(agent.skills);
    add(LOAD_SKILL_SPEC, false, (args) =>
      runLoadSkill(args as { name: string }, { allowed, get: (name) => getSkill(db, name) }),
    );
  }
  if (agent.memory) {
    const tenant = params.ctx.tenant ?? params.ctx.chat_id ?? "";
    add(REMEMBER_SPEC, true, (args) =>
      runRemember(args as { text: string }, {
        save: async (text) => {
          await insertMemory(db, { agentId: agent.id, tenant, text, keep: MEMORIES_KEPT });
        },
      }),
    );
  }
  if (agent.subagents.length > 0) {
    const deps = {
      allowed: new Set(agent.subagents),
      depth: params.depth,
      budget: params.subagentBudget,
      run: params.runChild,
    };
    const [one, many] = spawnSpecs(agent.subagents) as [ModelToolSpec, ModelToolSpec];
    add(one, true, (args, signal) => runSpawnSubagent(args as { agent: string; message: string }, deps, signal));
    add(many, true, (args, signal) =>
      runSpawnSubagents(args as { tasks: { agent: string; message: string }[] }, deps, signal),
    );
  }

  return {
    specs: [...entries.values()].map((entry) => entry.spec),
    has: (name) => entries.has(name),
    sideEffect: (name) => entries.get(name)?.sideEffect ?? true,
    async run(request) {
      const started = Date.now();
      const entry = entries.get(request.tool);
      const fail = (error: string): ToolOutcome => ({
        ok: false,
        error,
        content: JSON.stringify({ error }),
        record: localCallRecord(request, "system", false, error, started),
      });
      if (!entry) return fail(`unknown tool: ${request.tool}`);
      const checked = validateArguments(entry.spec.parameters, request.arguments);
      if (!checked.ok) return fail(checked.error);
      try {
        const result = await entry.run(request.arguments as Record<string, unknown>, request.signal);
        const content = JSON.stringify(result.value ?? null);
        const outcome: ToolOutcome = {
          ok: true,
          content,
          record: { ...localCallRecord(request, "system", true, undefined, started), result: clipResult(content) },
        };
        if (result.promote?.length) outcome.promote = result.promote;
        return outcome;
      } catch (error) {
        return fail(errorMessage(error));
      }
    },
  };
}
