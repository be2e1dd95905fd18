/**
 * Applies a config file's agents and data tools. Everything is validated
 * before anything is written: a config with one bad entry changes nothing.
 */
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import { versionActor } from "@/lib/services/tools/tools";
import { writeTools, type ToolWrite } from "@/db/queries/tools";
import { upsertAgent } from "@/db/queries/agents";
import { validationFailed } from "@/lib/errors";
import { AGENT_ID, agentInput } from "@/lib/agents/agent-input";
import type { AgentConfig } from "@/lib/config/define";
import { validateToolDefinition } from "@/lib/tools";
import { reservedToolNames } from "@/lib/services/tools/catalog";
import { agentValues, type AgentSource } from "@/lib/services/agents/agents";

export interface ApplyConfigResult {
  agents: string[];
  created: string[];
  updated: string[];
}

/** Validates the whole config, then writes it; throws a 422 DomainError listing every problem. */
export async function applyConfig(
  db: Db,
  actor: Principal,
  config: unknown,
  source: AgentSource = "config",
  options: { writeAgents?: boolean } = {},
): Promise<ApplyConfigResult> {
  const list = Array.isArray(config) ? config : [config];
  const problems: string[] = [];
  const agents: ReturnType<typeof agentValues>[] = [];
  const writes: ToolWrite[] = [];
  const reserved = reservedToolNames();
  const ids = new Set<string>();

  list.forEach((entry, i) => {
    const { id, dataTools, ...rest } = (entry ?? {}) as AgentConfig;
    const where = `agent ${typeof id === "string" ? `'${id}'` : `#${i}`}`;
    if (typeof id !== "string" || !AGENT_ID.test(id)) problems.push(`${where}: id must match ${AGENT_ID}`);
    // Two entries of one id: applying both would let the last silently replace the first.
    else if (ids.has(id)) problems.push(`${where}: defined twice in this config`);
    else ids.add(id);
    const parsed = agentInput.safeParse(rest);
    if (!parsed.success)
      problems.push(...parsed.error.issues.map((x) => `${where}: ${x.path.join(".")}: ${x.message}`));
    else if (typeof id === "string") agents.push(agentValues(id, parsed.data, source));
    if (dataTools != null && !Array.isArray(dataTools)) {
      problems.push(`${where}: dataTools must be a list of data tools (dataTool({...}))`);
      return;
    }
    for (const tool of dataTools ?? []) {
      if (writes.some((w) => w.definition.name === tool?.name)) {
        problems.push(`${where}: tool '${tool.name}' is defined twice in this config`);
        continue;
      }
      const checked = validateToolDefinition(tool, { writePath: "config", reservedNames: reserved });
      if (checked.ok) writes.push({ definition: checked.tool, kind: "data" });
      else problems.push(`${where}: tool '${(tool as { name?: unknown })?.name}': ${checked.error}`);
    }
  });
  if (problems.length > 0) throw validationFailed(`config not applied: ${problems.join("; ")}`);

  // One transaction: the config lands whole or not at all, with its audit entry.
  const outcome = await db.transaction(async (tx) => {
    const written = await writeTools(tx, { writes, source, actor: versionActor(actor) });
    if (options.writeAgents !== false) for (const values of agents) await upsertAgent(tx, values);
    await recordAudit(tx, actor, {
      action: "config.apply",
      target: `config:${source}`,
      summary: {
        agents: options.writeAgents === false ? [] : agents.map((a) => a.id),
        created: written.created,
        updated: written.updated,
      },
    });
    return written;
  });
  return {
    agents: agents.map((a) => a.id),
    created: outcome.created,
    updated: [...outcome.updated, ...outcome.unchanged],
  };
}
