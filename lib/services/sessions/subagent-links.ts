/**
 * A trace page's subagent links, for the Studio: where each subagent's turn leads back to (the
 * session of the turn whose spawn_subagent(s) call started it, turns.parent_turn_id) and the
 * subagents' turns each turn of the page started.
 */
import type { Db } from "@/db/database";
import { listChildTurns } from "@/db/queries/subagent-lineage";
import { getTurn } from "@/db/queries/turns";

/** A subagent's turn, as a link: its id, its session and how it stands. */
export interface ChildTurnLink {
  id: string;
  sessionId: string;
  status: string;
}

export interface SubagentLinks {
  /** Each parent turn the page's turns name, to its session (null: that turn is no longer stored). */
  parentSessions: Map<string, string | null>;
  /** Each turn of the page that started subagents' turns, to those turns (oldest first). */
  children: Map<string, ChildTurnLink[]>;
}

/**
 * The links of `turns` (a page of a trace). One read per distinct parent (a subagent's session
 * usually holds one turn) and one read of every child turn of the page (turns_parent index).
 */
export async function subagentLinks(
  db: Db,
  turns: readonly { id: string; parent_turn_id: string | null }[],
): Promise<SubagentLinks> {
  const parents = new Set(turns.flatMap((t) => (t.parent_turn_id ? [t.parent_turn_id] : [])));
  const parentSessions = new Map<string, string | null>();
  for (const id of parents) parentSessions.set(id, (await getTurn(db, id))?.sessionId ?? null);
  const children = new Map<string, ChildTurnLink[]>();
  for (const child of await listChildTurns(
    db,
    turns.map((t) => t.id),
  )) {
    const parent = child.parentTurnId ?? "";
    const list = children.get(parent) ?? [];
    list.push({ id: child.id, sessionId: child.sessionId, status: child.status });
    children.set(parent, list);
  }
  return { parentSessions, children };
}
