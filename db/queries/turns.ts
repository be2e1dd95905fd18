/** Turns: started (seq, user message, first checkpoint, the one-open-turn and rate checks), read, ended. */
import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { Db, Orm, Tables } from "../database";
import type { TurnRow, TurnStatus } from "../schema";
import { keyTurnsSince } from "./key-turns";
import { jsonOrNull, param, rawParam, storableText } from "./prepared";
import { insertMessages, type NewMessage } from "./transcripts";
import { insertEvent } from "./traces";

/** insertTurn with `rateLimit`: the key already started `max` turns in the window. */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
  constructor(
    readonly max: number,
    /** When the window frees a slot (ms since the epoch). */
    readonly freesAt: number,
  ) {
    super(`this key may start ${max} turns per minute`);
  }
}

/** insertTurn with `exclusive`: the session already has a running or waiting turn. */
export class SessionBusyError extends Error {
  override name = "SessionBusyError";
  constructor(sessionId: string) {
    super(`session '${sessionId}' already has a turn in progress`);
  }
}

/**
 * Starts a turn (next seq in the session), records the user message and the turn's first
 * checkpoint (its subagent depth and the lease of the process running it), in one transaction. With
 * `exclusive`, throws SessionBusyError instead when the session has a turn running or
 * waiting (checked by the same statement that picks the seq). With `rateLimit`, throws
 * RateLimitedError when the key already started `max` turns within the window (checked in
 * the same transaction, so two processes cannot both take the last slot). Resolves with the
 * turn's seq, the one column the caller does not already know: nothing is read back (RETURNING
 * and mapping the row cost ~1.5% of a turn's instructions).
 */
export async function insertTurn(
  db: Db,
  values: {
    id: string;
    sessionId: string;
    userMessage: string;
    depth?: number;
    runner?: { instance: string; pid: number; leaseUntil: number };
    exclusive?: boolean;
    keyId?: string | null;
    /** The turn whose spawn_subagent(s) call starts this one (a subagent's turn). */
    parentTurnId?: string | null;
    rateLimit?: { max: number; windowMs: number };
    now?: number;
  },
): Promise<{ seq: number }> {
  // In a transaction already (the group commit's): its own would only add a savepoint.
  if (!db.inTransaction) return db.transaction((tx) => insertTurn(tx, values));
  const now = values.now ?? Date.now();
  // One turn start per session at a time, and per key for its rate: across the fleet, two
  // starts would otherwise both read the same last seq, or both take the last slot.
  await db.lock(`insika:session:${values.sessionId}`);
  if (values.rateLimit && values.keyId) await db.lock(`insika:key-rate:${values.keyId}`);
  const s = turnStatements(db);
  const session = await s.sessionTurns.get({ sessionId: values.sessionId });
  if (values.exclusive && (session?.unfinished ?? 0) > 0) throw new SessionBusyError(values.sessionId);
  if (values.rateLimit && values.keyId) {
    const { max, windowMs } = values.rateLimit;
    const recent = await keyTurnsSince(db, { keyId: values.keyId, since: now - windowMs, max });
    if (recent.freesAt !== null) throw new RateLimitedError(max, recent.freesAt + windowMs);
  }
  const keyId = values.keyId ?? null;
  const seq = (session?.lastSeq ?? 0) + 1;
  await s.insert.run({
    id: values.id,
    sessionId: values.sessionId,
    seq,
    userMessage: values.userMessage,
    startedAt: now,
    keyId,
    parentTurnId: values.parentTurnId ?? null,
  });
  await insertMessages(db, [
    { sessionId: values.sessionId, turnId: values.id, role: "user", content: values.userMessage, createdAt: now },
  ]);
  const state = { turnId: values.id, step: -1, messages: [{ role: "user" as const, content: values.userMessage }] };
  const runner = values.runner;
  await s.checkpoint.run({
    turnId: values.id,
    state,
    depth: values.depth ?? 0,
    runnerPid: runner?.pid ?? null,
    runnerInstance: runner?.instance ?? null,
    leaseExpiresAt: runner?.leaseUntil ?? null,
    updatedAt: now,
  });
  await s.touchSession.run({ id: values.sessionId, now });
  return { seq };
}

/**
 * What a turn's start must keep its order with in a group commit's flush (groupCommit's
 * `orderedWith`): the other starts of its session, whose last seq and unfinished turns it
 * reads, and, with a rate to check, every start by its key, whose recent turns it counts.
 */
export function turnStartOrder(values: { sessionId: string; keyId?: string | null; rateLimit?: unknown }): string[] {
  const names = [`turn-start:session:${values.sessionId}`];
  if (values.rateLimit && values.keyId) names.push(`turn-start:key:${values.keyId}`);
  return names;
}

function turnStatements(db: Db) {
  return {
    sessionTurns: db.prepared("turns.sessionTurns", sessionTurnsStatement),
    insert: db.prepared("turns.insert", insertTurnStatement),
    checkpoint: db.prepared("turns.firstCheckpoint", firstCheckpointStatement),
    touchSession: db.prepared("turns.touchSession", (o, { sessions }) =>
      o
        .update(sessions)
        .set({ updatedAt: rawParam("now") })
        .where(eq(sessions.id, param("id"))),
    ),
  };
}

// The session's last seq and whether one of its turns is still going, each found by an index
// (turns_session_seq's last entry, turns_unfinished's entries), so a turn start costs the same
// however many turns the session holds.
function sessionTurnsStatement(o: Orm, { sessions }: Tables) {
  // Spelled out: Drizzle leaves columns unqualified in a one-table select, and inside a
  // subquery on turns an unqualified "id" would be the turn's.
  return o
    .select({
      lastSeq: sql<number | null>`(select max(t.seq) from turns t where t.session_id = "sessions"."id")`.mapWith(
        Number,
      ),
      unfinished:
        sql<number>`exists (select 1 from turns t where t.session_id = "sessions"."id" and t.status in ('running', 'waiting'))`.mapWith(
          Number,
        ),
    })
    .from(sessions)
    .where(eq(sessions.id, param("sessionId")));
}

function insertTurnStatement(o: Orm, { turns }: Tables) {
  return o.insert(turns).values({
    id: param("id"),
    sessionId: param("sessionId"),
    seq: param("seq"),
    status: "running",
    userMessage: param("userMessage"),
    startedAt: param("startedAt"),
    keyId: param("keyId"),
    parentTurnId: param("parentTurnId"),
  });
}

function firstCheckpointStatement(o: Orm, { checkpoints }: Tables) {
  return o.insert(checkpoints).values({
    turnId: param("turnId"),
    step: -1,
    state: param("state"),
    depth: param("depth"),
    runnerPid: param("runnerPid"),
    runnerInstance: param("runnerInstance"),
    leaseExpiresAt: param("leaseExpiresAt"),
    updatedAt: param("updatedAt"),
  });
}

export function getTurn(db: Db, id: string): Promise<TurnRow | undefined> {
  return db
    .prepared("turns.get", (o, { turns }) =>
      o
        .select()
        .from(turns)
        .where(eq(turns.id, param("id"))),
    )
    .get({ id });
}

/** Turns of a session in order. */
export function listTurns(db: Db, sessionId: string): Promise<TurnRow[]> {
  return db
    .prepared("turns.list", (o, { turns }) =>
      o
        .select()
        .from(turns)
        .where(eq(turns.sessionId, param("sessionId")))
        .orderBy(asc(turns.seq)),
    )
    .all({ sessionId });
}

/**
 * One page of a session's turns in seq order: those after `afterSeq`, at most `limit`. Reads the
 * turns_session_seq index in its order, so a page costs the same however long the session is.
 */
export function listTurnsPage(
  db: Db,
  sessionId: string,
  page: { afterSeq: number; limit: number },
): Promise<TurnRow[]> {
  return db
    .prepared("turns.page", (o, { turns }) =>
      o
        .select()
        .from(turns)
        .where(and(eq(turns.sessionId, param("sessionId")), gt(turns.seq, param("afterSeq"))))
        .orderBy(asc(turns.seq))
        .limit(param("limit")),
    )
    .all({ sessionId, afterSeq: page.afterSeq, limit: page.limit });
}

/** The seq of a session's last turn, 0 when it has none (turns_session_seq's last entry). */
export async function getLastTurnSeq(db: Db, sessionId: string): Promise<number> {
  const row = await db
    .prepared("turns.lastSeq", (o, { turns }) =>
      o
        .select({ seq: turns.seq })
        .from(turns)
        .where(eq(turns.sessionId, param("sessionId")))
        .orderBy(desc(turns.seq))
        .limit(1),
    )
    .get({ sessionId });
  return row?.seq ?? 0;
}

/** A session's turn by id, or undefined when the session has no such turn. */
export function getSessionTurn(db: Db, sessionId: string, turnId: string): Promise<TurnRow | undefined> {
  return db
    .prepared("turns.getInSession", (o, { turns }) =>
      o
        .select()
        .from(turns)
        .where(and(eq(turns.sessionId, param("sessionId")), eq(turns.id, param("turnId")))),
    )
    .get({ sessionId, turnId });
}

/**
 * The turn row alone: its status, answer, error and usage (endedAt once it is terminal).
 * For the end of a run, with its terminal event and messages, use recordTurnEnd.
 */
export async function updateTurnStatus(
  db: Db,
  params: {
    id: string;
    status: TurnStatus;
    content?: string | null;
    error?: string | null;
    usage?: TurnRow["usage"];
    now?: number;
  },
): Promise<void> {
  const done = params.status !== "running" && params.status !== "waiting";
  const update = db.prepared("turns.updateStatus", (o, { turns }) =>
    o
      .update(turns)
      .set({
        status: rawParam("status"),
        content: rawParam("content"),
        error: rawParam("error"),
        usage: rawParam("usage"),
        endedAt: rawParam("endedAt"),
      })
      .where(eq(turns.id, param("id"))),
  );
  await update.run({
    id: params.id,
    status: params.status,
    content: storableText(db, params.content ?? null),
    error: storableText(db, params.error ?? null),
    usage: jsonOrNull(params.usage),
    endedAt: done ? (params.now ?? Date.now()) : null,
  });
}

/**
 * A run's end in one transaction: its terminal event (when there is one), the messages
 * of the turn not yet in the transcript, and the turn row's status (updateTurnStatus).
 */
export async function recordTurnEnd(
  db: Db,
  params: {
    event?: Parameters<typeof insertEvent>[1] | undefined;
    messages: NewMessage[];
    turn: Parameters<typeof updateTurnStatus>[1];
    now?: number;
  },
): Promise<void> {
  if (!db.inTransaction) return db.transaction((tx) => recordTurnEnd(tx, params));
  if (params.event) await insertEvent(db, params.event);
  await insertMessages(db, params.messages);
  await updateTurnStatus(db, { ...params.turn, ...(params.now === undefined ? {} : { now: params.now }) });
}
