import { and, asc, desc, eq, inArray, max } from "drizzle-orm";
import type { Db } from "../client";
import { checkpoints, events, messages, sessions, toolCalls, turns, type TurnRow, type TurnStatus } from "../schema";

type NewMessage = Omit<typeof messages.$inferInsert, "id">;

/** Creates a session. */
export function insertSession(db: Db, values: { id: string; agentId: string; tenant: string | null; now?: number }) {
  const now = values.now ?? Date.now();
  return db.insert(sessions).values({ id: values.id, agentId: values.agentId, tenant: values.tenant, createdAt: now, updatedAt: now }).returning().get();
}

export function getSession(db: Db, id: string) {
  return db.select().from(sessions).where(eq(sessions.id, id)).get();
}

/** Recent sessions, newest first, optionally for one agent. */
export function listSessions(db: Db, params: { agentId?: string; limit?: number } = {}) {
  return db
    .select()
    .from(sessions)
    .where(params.agentId ? eq(sessions.agentId, params.agentId) : undefined)
    .orderBy(desc(sessions.updatedAt))
    .limit(params.limit ?? 100)
    .all();
}

/**
 * Starts a turn (next seq in the session), records the user message and the turn's first
 * checkpoint (its subagent depth and the process running it), in one transaction.
 */
export function insertTurn(
  db: Db,
  values: { id: string; sessionId: string; userMessage: string; depth?: number; runnerPid?: number | null; now?: number },
): TurnRow {
  const now = values.now ?? Date.now();
  return db.transaction((tx) => {
    const last = tx.select({ seq: max(turns.seq) }).from(turns).where(eq(turns.sessionId, values.sessionId)).get();
    const turn = tx
      .insert(turns)
      .values({ id: values.id, sessionId: values.sessionId, seq: (last?.seq ?? 0) + 1, status: "running", userMessage: values.userMessage, startedAt: now })
      .returning()
      .get();
    tx.insert(messages).values({ sessionId: values.sessionId, turnId: values.id, role: "user", content: values.userMessage, createdAt: now }).run();
    const state = { turnId: values.id, step: -1, messages: [{ role: "user" as const, content: values.userMessage }] };
    tx.insert(checkpoints).values({ turnId: values.id, step: -1, state, depth: values.depth ?? 0, runnerPid: values.runnerPid ?? null, updatedAt: now }).run();
    tx.update(sessions).set({ updatedAt: now }).where(eq(sessions.id, values.sessionId)).run();
    return turn;
  });
}

export function getTurn(db: Db, id: string) {
  return db.select().from(turns).where(eq(turns.id, id)).get();
}

/** Turns of a session in order. */
export function listTurns(db: Db, sessionId: string) {
  return db.select().from(turns).where(eq(turns.sessionId, sessionId)).orderBy(asc(turns.seq)).all();
}

/** Turns in a status (e.g. "running" ones to resume at start). */
export function listTurnsByStatus(db: Db, statuses: TurnStatus[]) {
  return db.select().from(turns).where(inArray(turns.status, statuses)).orderBy(asc(turns.startedAt)).all();
}

/** Records how a turn ended (or that it waits). */
export function finishTurn(
  db: Db,
  params: { id: string; status: TurnStatus; content?: string | null; error?: string | null; usage?: TurnRow["usage"]; now?: number },
) {
  const done = params.status !== "running" && params.status !== "waiting";
  db.update(turns)
    .set({ status: params.status, content: params.content ?? null, error: params.error ?? null, usage: params.usage ?? null, endedAt: done ? (params.now ?? Date.now()) : null })
    .where(eq(turns.id, params.id))
    .run();
}

/** Appends transcript messages in order. */
export function insertMessages(db: Db, rows: NewMessage[]) {
  if (rows.length > 0) db.insert(messages).values(rows).run();
}

/** The transcript of a session in recorded order. */
export function listMessages(db: Db, sessionId: string) {
  return db.select().from(messages).where(eq(messages.sessionId, sessionId)).orderBy(asc(messages.id)).all();
}

/** Appends one engine event. */
export function insertEvent(db: Db, values: { turnId: string; seq: number; type: string; data: Record<string, unknown>; at: number }) {
  db.insert(events).values(values).run();
}

/** Records one tool call (the trace's call record). */
export function insertToolCall(db: Db, values: Omit<typeof toolCalls.$inferInsert, "id">) {
  db.insert(toolCalls).values(values).run();
}

/** Events and tool calls of the given turns, in order. */
export function listTrace(db: Db, turnIds: string[]) {
  if (turnIds.length === 0) return { events: [], calls: [] };
  return {
    events: db.select().from(events).where(inArray(events.turnId, turnIds)).orderBy(asc(events.turnId), asc(events.seq)).all(),
    calls: db.select().from(toolCalls).where(inArray(toolCalls.turnId, turnIds)).orderBy(asc(toolCalls.id)).all(),
  };
}

/** The last event seq of a turn (to continue numbering after a resume). */
export function lastEventSeq(db: Db, turnId: string): number {
  return db.select({ seq: max(events.seq) }).from(events).where(and(eq(events.turnId, turnId))).get()?.seq ?? 0;
}
