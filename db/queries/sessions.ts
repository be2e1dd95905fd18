/** Sessions: created, read, listed (with their last turn for the Studio). */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../client";
import { sessions, turns } from "../schema";
import { param, prepared } from "./prepared";

/** Creates a session. */
export function insertSession(db: Db, values: { id: string; agentId: string; tenant: string | null; now?: number }) {
  const now = values.now ?? Date.now();
  const insert = prepared(db, "sessions.insert", (d) =>
    d
      .insert(sessions)
      .values({
        id: param("id"),
        agentId: param("agentId"),
        tenant: param("tenant"),
        createdAt: param("now"),
        updatedAt: param("now"),
      })
      .returning()
      .prepare(),
  );
  return insert.get({
    id: values.id,
    agentId: values.agentId,
    tenant: values.tenant,
    now,
  }) as typeof sessions.$inferSelect;
}

export function getSession(db: Db, id: string) {
  return prepared(db, "sessions.get", (d) =>
    d
      .select()
      .from(sessions)
      .where(eq(sessions.id, param("id")))
      .prepare(),
  ).get({ id });
}

/** Which sessions a list shows: one agent, a set of agents (a key's), one tenant (a pinned key's). */
export interface SessionFilter {
  agentId?: string;
  agentIds?: readonly string[];
  tenant?: string;
}

function sessionWhere(params: SessionFilter) {
  return and(
    params.agentId ? eq(sessions.agentId, params.agentId) : undefined,
    params.agentIds !== undefined ? inArray(sessions.agentId, [...params.agentIds]) : undefined,
    params.tenant !== undefined ? eq(sessions.tenant, params.tenant) : undefined,
  );
}

/** Recent sessions, newest first, optionally filtered. */
export function listSessions(db: Db, params: SessionFilter & { limit?: number } = {}) {
  return db
    .select()
    .from(sessions)
    .where(sessionWhere(params))
    .orderBy(desc(sessions.updatedAt))
    .limit(params.limit ?? 100)
    .all();
}

/**
 * Recent sessions, newest first, each with its turn count and its last turn's status and
 * user message, in one query (the Studio's sessions list). The limit applies to sessions
 * first, so the per-session lookups use the (session_id, seq) index for those rows only.
 */
export function listSessionSummaries(db: Db, params: SessionFilter & { limit?: number } = {}) {
  const recent = db
    .select({
      id: sessions.id,
      agentId: sessions.agentId,
      tenant: sessions.tenant,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(sessionWhere(params))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id))
    .limit(params.limit ?? 100)
    .as("recent");
  const last = alias(turns, "last_turn");
  const lastSeq = sql`(select max(${turns.seq}) from ${turns} where ${turns.sessionId} = ${recent.id})`;
  return db
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
    .orderBy(desc(recent.updatedAt), desc(recent.id))
    .all();
}
