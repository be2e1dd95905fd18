/** Read models for the Studio's session pages. */
import type { Db } from "@/db/database";
import { listAgents } from "@/db/queries/agents";
import { listSessionSummaries } from "@/db/queries/sessions";
import type { Principal } from "@/lib/access/principal";
import { visibleSessionFilter } from "./session-access";

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Recent sessions with their agent's name, turn count and last turn (one query for the
 * sessions); with `visibleTo`, only those that key may see (its agents, its tenant).
 */
export async function listSessionRows(db: Db, agentId?: string, visibleTo?: Principal) {
  // A deleted (archived) agent's sessions are history: they keep its name.
  const names = new Map((await listAgents(db, { includeArchived: true })).map((a) => [a.id, a.name]));
  const summaries = await listSessionSummaries(db, {
    ...(visibleTo ? visibleSessionFilter(visibleTo) : {}),
    ...(agentId ? { agentId } : {}),
    limit: 100,
  });
  return summaries.map((s) => ({
    id: s.id,
    agent_id: s.agentId,
    tenant: s.tenant,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    agent_name: names.get(s.agentId) ?? s.agentId,
    turns: s.turnCount,
    last_status: s.lastStatus,
    last_message: s.lastMessage,
  }));
}
