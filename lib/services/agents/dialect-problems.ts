/**
 * Provider dialect problems: for every live agent whose model has a dialect
 * (lib/providers/dialects), each tool it is offered (directly or deferred)
 * checked against the schema its provider will be sent (compiled first when
 * `model.strict`). What a provider would reject is reported with the agent,
 * the tool, a path and a fix hint, before a turn meets the provider's 400.
 * Reported, not refused: a tool is shared by agents of different providers,
 * and the fix (another schema, strict mode, another policy) is the operator's.
 */
import type { Db } from "@/db/database";
import { getAgent, listAgents } from "@/db/queries/agents";
import type { AgentRow } from "@/db/schema";
import { applyPolicy } from "@/lib/agents/policy";
import { checkDialect, compileForDialect, dialectFor, type Dialect } from "@/lib/providers/dialects";
import { getCatalog, type Catalog } from "@/lib/services/tools/catalog";
import { offeredToolSpecs } from "@/lib/services/tools/offered-tool-specs";

/** One problem of one tool for one agent. */
export interface ToolDialectProblem {
  agent: string;
  tool: string;
  dialect: Dialect;
  path: string;
  message: string;
}

// Per catalog object (rebuilt whenever the catalog version moves), per agent definition.
const cache = new WeakMap<Catalog, Map<string, ToolDialectProblem[]>>();

/** The problems of the named tools (just written: a manifest, an MCP or OpenAPI import), for every agent offered one. */
export async function dialectProblemsOfTools(db: Db, tools: Iterable<string>): Promise<ToolDialectProblem[]> {
  const names = new Set(tools);
  if (names.size === 0) return [];
  return (await listDialectProblems(db)).filter((p) => names.has(p.tool));
}

/** Every problem of every live agent (or only `filter.agent`'s, or only those of `filter.tool`), agent then tool order. */
export async function listDialectProblems(
  db: Db,
  filter: { agent?: string; tool?: string } = {},
): Promise<ToolDialectProblem[]> {
  const catalog = await getCatalog(db);
  let agents: AgentRow[];
  if (filter.agent !== undefined) {
    const one = await getAgent(db, filter.agent);
    agents = one ? [one] : [];
  } else agents = await listAgents(db);
  const out: ToolDialectProblem[] = [];
  for (const agent of agents) {
    for (const p of agentProblems(catalog, agent)) if (filter.tool === undefined || p.tool === filter.tool) out.push(p);
  }
  return out;
}

function agentProblems(catalog: Catalog, agent: AgentRow): ToolDialectProblem[] {
  const dialect = dialectFor(agent.model);
  if (dialect === null) return [];
  let perAgent = cache.get(catalog);
  if (!perAgent) cache.set(catalog, (perAgent = new Map()));
  const key = `${agent.id}@${agent.updatedAt}`;
  const hit = perAgent.get(key);
  if (hit) return hit;
  const usable = [...catalog.entries.values()].filter((e) => e.status === "ok");
  const exposure = applyPolicy(
    {
      tools_allow: agent.toolsAllow,
      tools_deny: agent.toolsDeny,
      tools_allow_groups: agent.toolsAllowGroups,
      tools_deferred: agent.toolsDeferred,
    },
    usable,
  );
  const problems: ToolDialectProblem[] = [];
  for (const spec of offeredToolSpecs(catalog, [...exposure.offered, ...exposure.deferred])) {
    const sent = agent.model.strict === true ? compileForDialect(spec.parameters, dialect) : spec.parameters;
    for (const p of checkDialect(sent, dialect)) {
      problems.push({ agent: agent.id, tool: spec.name, dialect, path: p.path, message: p.message });
    }
  }
  perAgent.set(key, problems);
  return problems;
}
