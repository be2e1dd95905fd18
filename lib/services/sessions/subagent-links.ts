/**
 * A trace page's subagent links, for the Studio: where each subagent's turn leads back to (the
 * session of the turn whose spawn_subagent(s) call started it, turns.parent_turn_id) and the
 * subagents' turns each turn of the page started. A subagent's session is its own agent's, so
 * each link is checked against what the principal may see, as the sessions it leads to are.
 */
import type { Db } from "@/db/database";
import { getSession } from "@/db/queries/sessions";
import { countChildTurns, listChildTurns } from "@/db/queries/subagent-lineage";
import { getTurn } from "@/db/queries/turns";
import { maySeeSession, type Principal } from "@/lib/access/principal";

/** A subagent's turn, as a link: its id, its session and how it stands. */
export interface ChildTurnLink {
  id: string;
  sessionId: string;
  status: string;
}

/** Where a parent turn is: its session, or that it is gone, or in a session the principal may not see. */
export type ParentTurnLink = { sessionId: string } | "gone" | "hidden";

/** The subagents' turns one turn started: the first CHILD_TURNS_SHOWN the viewer may see, and how many were started in all. */
export interface ChildTurns {
  shown: ChildTurnLink[];
  started: number;
}

/** Child turns listed per turn at most (a turn may start up to 200). */
export const CHILD_TURNS_SHOWN = 20;

export interface SubagentLinks {
  /** Each parent turn the page's turns name. */
  parents: Map<string, ParentTurnLink>;
  /** Each turn of the page that started subagents' turns, to those turns. */
  children: Map<string, ChildTurns>;
}

/**
 * The links of `turns` (a page of a trace) that `principal` may follow. Reads: each distinct
 * parent and its session (a subagent's session usually holds one turn); one count of the page's
 * child turns; and, for each turn that started any, its first CHILD_TURNS_SHOWN (turns_parent).
 */
export async function subagentLinks(
  db: Db,
  principal: Principal,
  turns: readonly { id: string; parent_turn_id: string | null }[],
): Promise<SubagentLinks> {
  const parents = new Map<string, ParentTurnLink>();
  for (const id of new Set(turns.flatMap((t) => (t.parent_turn_id ? [t.parent_turn_id] : [])))) {
    const turn = await getTurn(db, id);
    const session = turn ? await getSession(db, turn.sessionId) : undefined;
    if (!session) parents.set(id, "gone");
    else parents.set(id, maySeeSession(principal, session) ? { sessionId: session.id } : "hidden");
  }
  const children = new Map<string, ChildTurns>();
  const counts = await countChildTurns(
    db,
    turns.map((t) => t.id),
  );
  for (const [turnId, started] of counts) {
    const first = await listChildTurns(db, turnId, CHILD_TURNS_SHOWN);
    const shown = first
      .filter((child) => maySeeSession(principal, child))
      .map((child) => ({ id: child.id, sessionId: child.sessionId, status: child.status }));
    children.set(turnId, { shown, started });
  }
  return { parents, children };
}
