/**
 * Where a subagent's turn leads back to: the session of the turn whose spawn_subagent(s) call
 * started it (turns.parent_turn_id), for the Studio trace's link to that turn.
 */
import type { Db } from "@/db/database";
import { getTurn } from "@/db/queries/turns";

/**
 * The session of each parent turn named by `turns` (a page of a trace), by parent turn id;
 * a parent whose row is gone maps to null. One read per distinct parent (a subagent's session
 * usually holds one turn, and a trace page at most a few dozen).
 */
export async function parentTurnSessions(
  db: Db,
  turns: readonly { parent_turn_id: string | null }[],
): Promise<Map<string, string | null>> {
  const parents = new Set(turns.flatMap((t) => (t.parent_turn_id ? [t.parent_turn_id] : [])));
  const sessions = new Map<string, string | null>();
  for (const id of parents) sessions.set(id, (await getTurn(db, id))?.sessionId ?? null);
  return sessions;
}
