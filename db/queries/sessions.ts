/** Sessions: created, read, listed (with their last turn for the Studio). */
import { and, desc, eq, inArray, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db, Tables } from "../database";
import type { SessionRow } from "../schema";
import { param } from "./prepared";

/** Creates a session. */
export async function insertSession(
  db: Db,
  values: { id: string; agentId: string; tenant: string | null; now?: number },
): Promise<SessionRow> {
  const now = values.now ?? Date.now();
  const insert = db.prepared("sessions.insert", (o, { sessions }) =>
    o
      .insert(sessions)
      .values({
        id: param("id"),
        agentId: param("agentId"),
        tenant: param("tenant"),
        createdAt: param("now"),
        updatedAt: param("now"),
      })
      .returning(),
  );
  return (await insert.get({ id: values.id, agentId: values.agentId, tenant: values.tenant, now })) as SessionRow;
}

export function getSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db
    .prepared("sessions.get", (o, { sessions }) =>
      o
        .select()
        .from(sessions)
        .where(eq(sessions.id, param("id"))),
    )
    .get({ id });
}

/**
 * Deletes a session that has no turn (one nothing ran in: an MCP `initialize` the transport
 * refused); false when there is none. A session with turns is kept: deleting it would take
 * its turns, messages and approvals along (cascade).
 */
export async function deleteEmptySession(db: Db, id: string): Promise<boolean> {
  const { sessions, turns } = db.t;
  const hasTurn = db.orm.select({ id: turns.id }).from(turns).where(eq(turns.sessionId, id));
  return (await db.run(db.orm.delete(sessions).where(and(eq(sessions.id, id), notExists(hasTurn))))) === 1;
}

/** Which sessions a list shows: one agent, a set of agents (a key's), one tenant (a pinned key's). */
export interface SessionFilter {
  agentId?: string;
  agentIds?: readonly string[];
  tenant?: string;
}

/** The condition on `sessions` that a SessionFilter stands for (undefined: every session). */
export function sessionWhere({ sessions }: Tables, params: SessionFilter) {
  return and(
    params.agentId ? eq(sessions.agentId, params.agentId) : undefined,
    params.agentIds !== undefined ? inArray(sessions.agentId, [...params.agentIds]) : undefined,
    params.tenant !== undefined ? eq(sessions.tenant, params.tenant) : undefined,
  );
}

/**
 * Recent sessions, newest first (ties by id), optionally filtered. Every filter has an index in
 * that order (schema/sessions.ts), so a list reads its first rows, whatever the table holds.
 */
export function listSessions(db: Db, params: SessionFilter & { limit?: number } = {}): Promise<SessionRow[]> {
  const { sessions } = db.t;
  return db.all(
    db.orm
      .select()
      .from(sessions)
      .where(sessionWhere(db.t, params))
      .orderBy(desc(sessions.updatedAt), desc(sessions.id))
      .limit(params.limit ?? 100),
  );
}

/**
 * Recent sessions, newest first, each with its turn count and its last turn's status and
 * user message, in one query (the Studio's sessions list). The limit applies to sessions
 * first, so the per-session lookups use the (session_id, seq) index for those rows only.
 */
export function listSessionSummaries(db: Db, params: SessionFilter & { limit?: number } = {}) {
  const { sessions, turns } = db.t;
  const recent = db.orm
    .select({
      id: sessions.id,
      agentId: sessions.agentId,
      tenant: sessions.tenant,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(sessionWhere(db.t, params))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id))
    .limit(params.limit ?? 100)
    .as("recent");
  const last = alias(turns, "last_turn");
  const lastSeq = sql`(select max(${turns.seq}) from ${turns} where ${turns.sessionId} = ${recent.id})`;
  return db.all(
    db.orm
      .select({
        id: recent.id,
        agentId: recent.agentId,
        tenant: recent.tenant,
        createdAt: recent.createdAt,
        updatedAt: recent.updatedAt,
        turnCount: sql<number>`(select count(*) from ${turns} where ${turns.sessionId} = ${recent.id})`.mapWith(Number),
        lastStatus: last.status,
        lastMessage: last.userMessage,
      })
      .from(recent)
      .leftJoin(last, and(eq(last.sessionId, recent.id), eq(last.seq, lastSeq)))
      .orderBy(desc(recent.updatedAt), desc(recent.id)),
  );
}
