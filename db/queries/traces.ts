/** A turn's trace: its engine events and the record of each tool call. */
import { and, asc, eq, gt, inArray, max, sql } from "drizzle-orm";
import type { Db } from "../client";
import { events, toolCalls, turns } from "../schema";
import { param, prepared, transaction } from "./prepared";

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
