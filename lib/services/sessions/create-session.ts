/** Creating a session: the conversation a client then sends turns to. */
import type { Db } from "@/db/database";
import { insertSession } from "@/db/queries/sessions";
import { getAgentOrThrow } from "@/lib/services/agents/agents";
import { newId } from "@/lib/services/new-id";

/** Creates a session for an agent (404 for an unknown agent). */
export async function createSession(db: Db, params: { agentId: string; tenant?: string | null }) {
  await getAgentOrThrow(db, params.agentId);
  const row = await insertSession(db, { id: newId("ses"), agentId: params.agentId, tenant: params.tenant ?? null });
  return { id: row.id, agent_id: row.agentId, tenant: row.tenant };
}
