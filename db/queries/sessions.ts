import { and, asc, desc, eq, gt, inArray, max, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../client";
import { checkpoints, events, messages, sessions, toolCalls, turns, type TurnRow, type TurnStatus } from "../schema";
import { keyTurnsSince } from "./key-turns";
import { jsonOrNull, param, prepared, rawParam, transaction } from "./prepared";

type NewMessage = Omit<typeof messages.$inferInsert, "id">;

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
 * the same transaction, so two processes cannot both take the last slot).
 */
export function insertTurn(
  db: Db,
  values: {
    id: string;
    sessionId: string;
    userMessage: string;
    depth?: number;
    runner?: { instance: string; pid: number; leaseUntil: number };
    exclusive?: boolean;
    keyId?: string | null;
    rateLimit?: { max: number; windowMs: number };
    now?: number;
  },
): TurnRow {
  const now = values.now ?? Date.now();
  const s = prepared(db, "turns.insert", turnStatements);
  const write = transaction(db, "insertTurn", (values: Parameters<typeof insertTurn>[1], now: number) => {
    const session = s.sessionTurns.get({ sessionId: values.sessionId });
    if (values.exclusive && (session?.unfinished ?? 0) > 0) throw new SessionBusyError(values.sessionId);
    if (values.rateLimit && values.keyId) {
      const { max, windowMs } = values.rateLimit;
      const recent = keyTurnsSince(db, { keyId: values.keyId, since: now - windowMs, max });
      if (recent.freesAt !== null) throw new RateLimitedError(max, recent.freesAt + windowMs);
    }
    const keyId = values.keyId ?? null;
    const turn = s.insert.get({
      id: values.id,
      sessionId: values.sessionId,
      seq: (session?.lastSeq ?? 0) + 1,
      userMessage: values.userMessage,
      startedAt: now,
      keyId,
    });
    insertMessages(db, [
      { sessionId: values.sessionId, turnId: values.id, role: "user", content: values.userMessage, createdAt: now },
    ]);
    const state = { turnId: values.id, step: -1, messages: [{ role: "user" as const, content: values.userMessage }] };
    const runner = values.runner;
    s.checkpoint.run({
      turnId: values.id,
      state,
      depth: values.depth ?? 0,
      runnerPid: runner?.pid ?? null,
      runnerInstance: runner?.instance ?? null,
      leaseExpiresAt: runner?.leaseUntil ?? null,
      updatedAt: now,
    });
    s.touchSession.run({ id: values.sessionId, now });
    return turn as TurnRow;
  });
  return write(values, now);
}

function turnStatements(db: Db) {
  return {
    // One pass over the session's turns: the last seq, and whether one is still going.
    sessionTurns: db
      .select({
        lastSeq: max(turns.seq),
        unfinished: sql<number>`count(*) filter (where ${turns.status} in ('running', 'waiting'))`.mapWith(Number),
      })
      .from(turns)
      .where(eq(turns.sessionId, param("sessionId")))
      .prepare(),
    insert: db
      .insert(turns)
      .values({
        id: param("id"),
        sessionId: param("sessionId"),
        seq: param("seq"),
        status: "running",
        userMessage: param("userMessage"),
        startedAt: param("startedAt"),
        keyId: param("keyId"),
      })
      .returning()
      .prepare(),
    checkpoint: db
      .insert(checkpoints)
      .values({
        turnId: param("turnId"),
        step: -1,
        state: param("state"),
        depth: param("depth"),
        runnerPid: param("runnerPid"),
        runnerInstance: param("runnerInstance"),
        leaseExpiresAt: param("leaseExpiresAt"),
        updatedAt: param("updatedAt"),
      })
      .prepare(),
    touchSession: db
      .update(sessions)
      .set({ updatedAt: rawParam("now") })
      .where(eq(sessions.id, param("id")))
      .prepare(),
  };
}

export function getTurn(db: Db, id: string) {
  return prepared(db, "turns.get", (d) =>
    d
      .select()
      .from(turns)
      .where(eq(turns.id, param("id")))
      .prepare(),
  ).get({ id });
}

/** Turns of a session in order. */
export function listTurns(db: Db, sessionId: string) {
  return prepared(db, "turns.list", (d) =>
    d
      .select()
      .from(turns)
      .where(eq(turns.sessionId, param("sessionId")))
      .orderBy(asc(turns.seq))
      .prepare(),
  ).all({ sessionId });
}

/** Turns in a status (e.g. "running" ones to resume at start). */
export function listTurnsByStatus(db: Db, statuses: TurnStatus[]) {
  return db.select().from(turns).where(inArray(turns.status, statuses)).orderBy(asc(turns.startedAt)).all();
}

/**
 * The turn row alone: its status, answer, error and usage (endedAt once it is terminal).
 * For the end of a run, with its terminal event and messages, use recordTurnEnd.
 */
export function updateTurnStatus(
  db: Db,
  params: {
    id: string;
    status: TurnStatus;
    content?: string | null;
    error?: string | null;
    usage?: TurnRow["usage"];
    now?: number;
  },
) {
  const done = params.status !== "running" && params.status !== "waiting";
  const update = prepared(db, "turns.updateStatus", (d) =>
    d
      .update(turns)
      .set({
        status: rawParam("status"),
        content: rawParam("content"),
        error: rawParam("error"),
        usage: rawParam("usage"),
        endedAt: rawParam("endedAt"),
      })
      .where(eq(turns.id, param("id")))
      .prepare(),
  );
  update.run({
    id: params.id,
    status: params.status,
    content: params.content ?? null,
    error: params.error ?? null,
    usage: jsonOrNull(params.usage),
    endedAt: done ? (params.now ?? Date.now()) : null,
  });
}

/**
 * A run's end in one transaction: its terminal event (when there is one), the messages
 * of the turn not yet in the transcript, and the turn row's status (updateTurnStatus).
 */
export function recordTurnEnd(
  db: Db,
  params: {
    event?: Parameters<typeof insertEvent>[1] | undefined;
    messages: NewMessage[];
    turn: Parameters<typeof updateTurnStatus>[1];
    now?: number;
  },
) {
  transaction(db, "recordTurnEnd", (p: typeof params) => {
    if (p.event) insertEvent(db, p.event);
    insertMessages(db, p.messages);
    updateTurnStatus(db, { ...p.turn, ...(p.now === undefined ? {} : { now: p.now }) });
  })(params);
}

/** Appends transcript messages in order, in one transaction (the caller's, when it has one). */
export function insertMessages(db: Db, rows: NewMessage[]) {
  if (rows.length === 0) return;
  const insert = prepared(db, "messages.insert", (d) =>
    d
      .insert(messages)
      .values({
        sessionId: param("sessionId"),
        turnId: param("turnId"),
        role: param("role"),
        content: param("content"),
        toolCalls: rawParam("toolCalls"),
        callId: param("callId"),
        tool: param("tool"),
        createdAt: param("createdAt"),
      })
      .prepare(),
  );
  const run = () => {
    for (const r of rows)
      insert.run({ ...r, toolCalls: jsonOrNull(r.toolCalls), callId: r.callId ?? null, tool: r.tool ?? null });
  };
  if (rows.length === 1 || db.$client.inTransaction) run();
  else transaction(db, "insertMessages", (run: () => void) => run())(run);
}

/** The transcript of a session in recorded order. */
export function listMessages(db: Db, sessionId: string) {
  return prepared(db, "messages.list", (d) =>
    d
      .select()
      .from(messages)
      .where(eq(messages.sessionId, param("sessionId")))
      .orderBy(asc(messages.id))
      .prepare(),
  ).all({ sessionId });
}

/** Appends one engine event. */
export function insertEvent(
  db: Db,
  values: { turnId: string; seq: number; type: string; data: Record<string, unknown>; at: number },
) {
  const insert = prepared(db, "events.insert", (d) =>
    d
      .insert(events)
      .values({ turnId: param("turnId"), seq: param("seq"), type: param("type"), data: param("data"), at: param("at") })
      .prepare(),
  );
  insert.run(values);
}

/** A tool result's event and, when given, its call record, committed together. */
export function insertToolResult(
  db: Db,
  params: { call?: Parameters<typeof insertToolCall>[1]; event: Parameters<typeof insertEvent>[1] },
) {
  transaction(db, "insertToolResult", (p: typeof params) => {
    if (p.call) insertToolCall(db, p.call);
    insertEvent(db, p.event);
  })(params);
}

/** Records one tool call (the trace's call record). */
export function insertToolCall(db: Db, values: Omit<typeof toolCalls.$inferInsert, "id">) {
  const insert = prepared(db, "tool_calls.insert", (d) =>
    d
      .insert(toolCalls)
      .values({
        turnId: param("turnId"),
        callId: param("callId"),
        tool: param("tool"),
        ok: param("ok"),
        startedAt: param("startedAt"),
        durationMs: param("durationMs"),
        queuedMs: param("queuedMs"),
        record: param("record"),
      })
      .prepare(),
  );
  insert.run(values);
}

/** Events and tool calls of the given turns, in order. */
export function listTrace(db: Db, turnIds: string[]) {
  if (turnIds.length === 0) return { events: [], calls: [] };
  return {
    events: db
      .select()
      .from(events)
      .where(inArray(events.turnId, turnIds))
      .orderBy(asc(events.turnId), asc(events.seq))
      .all(),
    calls: db.select().from(toolCalls).where(inArray(toolCalls.turnId, turnIds)).orderBy(asc(toolCalls.id)).all(),
  };
}

/**
 * One tool call of a session by its call id, or undefined. Call ids are unique per turn,
 * not always per session (scripted models number them per step): `turnId` narrows the
 * lookup, and without it the first recorded call wins, as the trace page's deep link does.
 */
export function getSessionToolCall(db: Db, params: { sessionId: string; callId: string; turnId?: string }) {
  const select = prepared(db, "tool_calls.getInSession", (d) =>
    d
      .select({ call: toolCalls })
      .from(toolCalls)
      .innerJoin(turns, eq(turns.id, toolCalls.turnId))
      .where(
        and(
          eq(turns.sessionId, param("sessionId")),
          eq(toolCalls.callId, param("callId")),
          sql`(${param("turnId")} is null or ${toolCalls.turnId} = ${param("turnId")})`,
        ),
      )
      .orderBy(asc(turns.seq), asc(toolCalls.id))
      .limit(1)
      .prepare(),
  );
  return select.get({ sessionId: params.sessionId, callId: params.callId, turnId: params.turnId ?? null })?.call;
}

/** Events of one turn after `afterSeq`, in order (to follow a turn that runs in the background). */
export function listTurnEvents(db: Db, params: { turnId: string; afterSeq?: number; limit?: number }) {
  return db
    .select()
    .from(events)
    .where(and(eq(events.turnId, params.turnId), gt(events.seq, params.afterSeq ?? 0)))
    .orderBy(asc(events.seq))
    .limit(params.limit ?? 500)
    .all();
}

/** The last event seq of a turn (to continue numbering after a resume). */
export function lastEventSeq(db: Db, turnId: string): number {
  return (
    prepared(db, "events.lastSeq", (d) =>
      d
        .select({ seq: max(events.seq) })
        .from(events)
        .where(eq(events.turnId, param("turnId")))
        .prepare(),
    ).get({ turnId })?.seq ?? 0
  );
}
