/** Read models for the Studio's session pages. */
import type { Db } from "@/db/client";
import { listAgents } from "@/db/queries/agents";
import { listTurns } from "@/db/queries/sessions";
import { listSessionsPresented } from "./sessions";

/** Recent sessions with their agent's name, turn count and last turn status. */
export function listSessionRows(db: Db, agentId?: string) {
  const names = new Map(listAgents(db).map((a) => [a.id, a.name]));
  return listSessionsPresented(db, agentId).map((s) => {
    const turns = listTurns(db, s.id);
    return { ...s, agent_name: names.get(s.agent_id) ?? s.agent_id, turns: turns.length, last_status: turns.at(-1)?.status ?? null, last_message: turns.at(-1)?.userMessage ?? null };
  });
}
