/**
 * A turn's subagent lineage, read back for a resume: the turn and each ancestor up the
 * parent_turn_id chain, with its agent's limits and how many turns its subtree has started;
 * and, for the Studio's trace, the turns a page of turns started.
 */
import { asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../database";
import type { AgentLimits } from "../schema";
import { param } from "./prepared";

export interface LineageTurn {
  turnId: string;
  /** The limits of the turn's agent; null when its session or agent row is gone. */
  limits: AgentLimits | null;
  /** The turns started below this one, at any depth (children, their children...). */
  subtreeTurns: number;
}

/**
 * `turnId` first, then its parent, up to the topmost ancestor whose row still exists (a
 * parent_turn_id naming a deleted turn ends the walk there: what was above it is not known).
 * Empty when `turnId` itself has no row. Two kinds of read: one primary-key read per level
 * (subagents nest at most three deep), then one count of every subtree at once.
 */
export async function subagentLineage(db: Db, turnId: string): Promise<LineageTurn[]> {
  const chain: { turnId: string; limits: AgentLimits | null }[] = [];
  const seen = new Set<string>();
  let next: string | null = turnId;
  // `seen` stops a chain that loops back on itself (only a hand-edited row could make one).
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const row = await lineageStep(db).get({ id: next });
    if (!row) break;
    chain.push({ turnId: next, limits: row.limits });
    next = row.parentTurnId;
  }
  if (chain.length === 0) return [];
  const counts = await subtreeCounts(
    db,
    chain.map((t) => t.turnId),
  );
  return chain.map((t) => ({ ...t, subtreeTurns: counts.get(t.turnId) ?? 0 }));
}

function lineageStep(db: Db) {
  return db.prepared("subagentLineage.step", (o, { turns, sessions, agents }) =>
    o
      .select({ parentTurnId: turns.parentTurnId, limits: agents.limits })
      .from(turns)
      .leftJoin(sessions, eq(sessions.id, turns.sessionId))
      .leftJoin(agents, eq(agents.id, sessions.agentId))
      .where(eq(turns.id, param("id"))),
  );
}

/**
 * How many turns each of `roots` has below it, at any depth, found through the turns_parent
 * index level by level. UNION (not UNION ALL) keeps each (root, turn) pair once, so even a
 * chain that loops ends. Written to run on SQLite and PostgreSQL alike.
 */
async function subtreeCounts(db: Db, roots: string[]): Promise<Map<string, number>> {
  const ids = sql.join(
    roots.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await db.execute<{ root: string; n: number | string }>(sql`
    with recursive below(root, id) as (
      select parent_turn_id, id from turns where parent_turn_id in (${ids})
      union
      select below.root, turns.id from turns join below on turns.parent_turn_id = below.id
    )
    select root, count(*) as n from below group by root`);
  return new Map(rows.map((row) => [row.root, Number(row.n)]));
}

/**
 * How many turns the spawn calls of each of `parentTurnIds` started (only those that started
 * any), counted in the turns_parent index.
 */
export async function countChildTurns(db: Db, parentTurnIds: readonly string[]): Promise<Map<string, number>> {
  if (parentTurnIds.length === 0) return new Map();
  const { turns } = db.t;
  const rows = await db.all(
    db.orm
      .select({ parentTurnId: turns.parentTurnId, n: count() })
      .from(turns)
      .where(inArray(turns.parentTurnId, [...parentTurnIds]))
      .groupBy(turns.parentTurnId),
  );
  return new Map(rows.flatMap((r) => (r.parentTurnId ? [[r.parentTurnId, Number(r.n)] as const] : [])));
}

/**
 * The first `limit` turns the spawn calls of `parentTurnId` started (its subagents' turns),
 * oldest first, with their session's id, agent and tenant (for who may see them) and their
 * status; read through the turns_parent index.
 */
export function listChildTurns(
  db: Db,
  parentTurnId: string,
  limit: number,
): Promise<{ id: string; status: string; sessionId: string; agentId: string; tenant: string | null }[]> {
  const { turns, sessions } = db.t;
  return db.all(
    db.orm
      .select({
        id: turns.id,
        status: turns.status,
        sessionId: turns.sessionId,
        agentId: sessions.agentId,
        tenant: sessions.tenant,
      })
      .from(turns)
      .innerJoin(sessions, eq(sessions.id, turns.sessionId))
      .where(eq(turns.parentTurnId, parentTurnId))
      .orderBy(asc(turns.startedAt), asc(turns.id))
      .limit(limit),
  );
}
