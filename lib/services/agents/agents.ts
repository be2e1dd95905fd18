/**
 * Agent use cases: create/replace, read, delete, and "which tools does a turn
 * of this agent see" (the same answer the engine uses).
 */
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import type { AgentRow } from "@/db/schema";
import { archiveAgent, getAgent, getAgentRecord, listAgents, upsertAgent } from "@/db/queries/agents";
import { DomainError, notFound, validationFailed } from "@/lib/errors";
import { AGENT_ID, DEFAULT_LIMITS, agentInput, type AgentInput } from "@/lib/agents/agent-input";
import { applyPolicy } from "@/lib/agents/policy";
import { log } from "@/lib/log";
import { getCatalog, type Catalog } from "@/lib/services/tools/catalog";

/** The agent's definition as PUT /v1/agents/:id takes it (what presentAgent shows, minus id and timestamps). */
export function agentBody(row: AgentRow) {
  return {
    name: row.name,
    instructions: row.instructions,
    model: row.model,
    tools_allow: row.toolsAllow,
    tools_deny: row.toolsDeny,
    tools_allow_groups: row.toolsAllowGroups,
    tools_deferred: row.toolsDeferred,
    approvals: row.approvals,
    limits: row.limits,
    metadata: row.metadata,
    skills: row.skills,
    subagents: row.subagents,
    memory: row.memory,
  };
}

/** The API shape of an agent. */
export function presentAgent(row: AgentRow) {
  return { id: row.id, ...agentBody(row), updated_at: new Date(row.updatedAt).toISOString() };
}

export type AgentSource = "api" | "studio" | "config" | "seed";

/** Validates and stores a whole agent definition (absent fields take their defaults). */
export async function putAgent(db: Db, actor: Principal, id: string, body: unknown, source: AgentSource = "api") {
  if (!AGENT_ID.test(id)) throw validationFailed(`agent id must match ${AGENT_ID}`);
  const parsed = agentInput.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
    throw validationFailed(problems.join("; "));
  }
  const before = await getAgent(db, id);
  const { created, agent } = await db.transaction(async (tx) => {
    const written = await upsertAgent(tx, agentValues(id, parsed.data, source));
    const changed = changedFields(before ? agentBody(before) : undefined, agentBody(written.agent));
    await recordAudit(tx, actor, {
      action: "agent.put",
      target: `agent:${id}`,
      summary: { change: written.created ? "created" : "updated", changed, source },
    });
    return written;
  });
  return { created, agent: presentAgent(agent) };
}

/** The row values for a validated agent input (absent fields take their defaults). */
export function agentValues(id: string, input: AgentInput, source: AgentSource) {
  return {
    id,
    name: input.name ?? id,
    instructions: input.instructions ?? "",
    model: input.model,
    toolsAllow: input.tools_allow ?? null,
    toolsDeny: input.tools_deny ?? [],
    toolsAllowGroups: input.tools_allow_groups ?? null,
    toolsDeferred: input.tools_deferred ?? [],
    approvals: input.approvals ?? [],
    limits: { ...DEFAULT_LIMITS, ...input.limits },
    metadata: input.metadata ?? {},
    skills: input.skills ?? [],
    subagents: input.subagents ?? [],
    memory: input.memory ?? false,
    source,
  };
}

export async function getAgentOrThrow(db: Db, id: string): Promise<AgentRow> {
  const row = await getAgent(db, id);
  if (!row) throw notFound(`agent '${id}'`);
  return row;
}

export const listAgentsPresented = async (db: Db) => (await listAgents(db)).map(presentAgent);

/**
 * Deletes an agent: archives it (db/queries/agents.ts archiveAgent), so its history stays.
 * 404 when there is no live agent of that id. Returns the waiting turns that ended with it.
 */
export async function removeAgent(
  db: Db,
  actor: Principal,
  id: string,
): Promise<{ deleted: string; failed_turns: string[] }> {
  const archived = await db.transaction(async (tx) => {
    const done = await archiveAgent(tx, id);
    if (!done) throw notFound(`agent '${id}'`);
    await recordAudit(tx, actor, {
      action: "agent.delete",
      target: `agent:${id}`,
      summary: { archived: true, failed_turns: done.failedTurns },
    });
    return done;
  });
  log.info("agent deleted (archived; its history is kept)", { agent_id: id, failed_turns: archived.failedTurns });
  return { deleted: id, failed_turns: archived.failedTurns };
}

/** Why a deleted agent's session takes no new turn. */
export const agentDeletedMessage = (id: string) =>
  `agent '${id}' was deleted: its sessions stay readable but take no new turns`;

/**
 * The agent a new turn of a session runs as: 404 when the row is gone (a database from
 * before archiving), 409 when the agent was deleted (archived).
 */
export async function getAgentForTurnOrThrow(db: Db, id: string): Promise<AgentRow> {
  const row = await getAgentRecord(db, id);
  if (!row) throw notFound(`agent '${id}'`);
  if (row.archivedAt !== null) throw new DomainError("conflict", agentDeletedMessage(id), { agent_id: id });
  return row;
}

/** What a turn of this agent is offered, deferred and denied, and why for each tool (of `catalog`, when the caller has it). */
export async function agentToolExposure(db: Db, agent: AgentRow, catalog?: Catalog) {
  const usable = [...(catalog ?? (await getCatalog(db))).entries.values()].filter((e) => e.status === "ok");
  return applyPolicy(
    {
      tools_allow: agent.toolsAllow,
      tools_deny: agent.toolsDeny,
      tools_allow_groups: agent.toolsAllowGroups,
      tools_deferred: agent.toolsDeferred,
    },
    usable,
  );
}

/** The system tools a turn of this agent is offered (DESIGN D13): feature configured, not denied. */
export function agentSystemTools(agent: AgentRow, hasDeferred: boolean): string[] {
  const wanted = [
    ...(hasDeferred ? ["tool_search"] : []),
    ...(agent.skills.length > 0 ? ["load_skill"] : []),
    ...(agent.memory ? ["remember"] : []),
    ...(agent.subagents.length > 0 ? ["spawn_subagent", "spawn_subagents"] : []),
  ];
  return wanted.filter((name) => !agent.toolsDeny.includes(name));
}

/** The top-level fields whose JSON differs between two versions of a definition (the audit log's diff). */
export function changedFields(before: Record<string, unknown> | undefined, after: Record<string, unknown>): string[] {
  if (!before) return Object.keys(after);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}
