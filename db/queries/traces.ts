/** A turn's trace: its engine events and the record of each tool call. */
import { and, asc, eq, gt, inArray, max, sql } from "drizzle-orm";
import type { Db } from "../database";
import type { toolCalls } from "../schema";
import { holdRow, holdsRows, type HeldTable } from "./held-rows";
import { param, rawParam, storableJson } from "./prepared";

/** The channel told the turn id each time events of a turn are committed (followers wake on it). */
export const TURN_EVENTS_CHANNEL = "insika_turn_events";

/** Appends one engine event. */
export async function insertEvent(
  db: Db,
  values: { turnId: string; seq: number; type: string; data: Record<string, unknown>; at: number },
): Promise<void> {
  if (holdsRows(db)) {
    const { turnId, seq, type, data, at } = values;
    holdRow(db, EVENTS, { turn_id: turnId, seq, type, data: JSON.stringify(data), at });
    return;
  }
  const insert = db.prepared("events.insert", (o, { events }) =>
    o.insert(events).values({
      turnId: param("turnId"),
      seq: param("seq"),
      type: param("type"),
      data: param("data"),
      at: param("at"),
    }),
  );
  await insert.run(values);
}

const EVENTS: HeldTable = {
  name: "events",
  columns: [
    ["turn_id", "text"],
    ["seq", "bigint"],
    ["type", "text"],
    ["data", "text"],
    ["at", "bigint"],
  ],
};

const TOOL_CALLS: HeldTable = {
  name: "tool_calls",
  columns: [
    ["turn_id", "text"],
    ["call_id", "text"],
    ["tool", "text"],
    ["ok", "boolean"],
    ["started_at", "bigint"],
    ["duration_ms", "bigint"],
    ["queued_ms", "bigint"],
    ["record", "text"],
  ],
};

/** A tool result's event and, when given, its call record, committed together. */
export async function insertToolResult(
  db: Db,
  params: { call?: Parameters<typeof insertToolCall>[1]; event: Parameters<typeof insertEvent>[1] },
): Promise<void> {
  if (!db.inTransaction) return db.transaction((tx) => insertToolResult(tx, params));
  if (params.call) await insertToolCall(db, params.call);
  await insertEvent(db, params.event);
}

/** Records one tool call (the trace's call record). */
export async function insertToolCall(db: Db, values: Omit<typeof toolCalls.$inferInsert, "id">): Promise<void> {
  if (holdsRows(db)) {
    const { turnId, callId, tool, ok, startedAt, durationMs, queuedMs, record } = values;
    holdRow(db, TOOL_CALLS, {
      turn_id: turnId,
      call_id: callId,
      tool,
      ok,
      started_at: startedAt,
      duration_ms: durationMs,
      queued_ms: queuedMs,
      record: storableJson(db, record),
    });
    return;
  }
  const insert = db.prepared("tool_calls.insert", (o, { toolCalls }) =>
    o.insert(toolCalls).values({
      turnId: param("turnId"),
      callId: param("callId"),
      tool: param("tool"),
      ok: param("ok"),
      startedAt: param("startedAt"),
      durationMs: param("durationMs"),
      queuedMs: param("queuedMs"),
      record: rawParam("record"),
    }),
  );
  await insert.run({ ...values, record: storableJson(db, values.record) });
}

/** Events and tool calls of the given turns, in order. */
export async function listTrace(db: Db, turnIds: string[]) {
  const { events, toolCalls } = db.t;
  if (turnIds.length === 0) return { events: [], calls: [] };
  return {
    events: await db.all(
      db.orm.select().from(events).where(inArray(events.turnId, turnIds)).orderBy(asc(events.turnId), asc(events.seq)),
    ),
    calls: await db.all(
      db.orm.select().from(toolCalls).where(inArray(toolCalls.turnId, turnIds)).orderBy(asc(toolCalls.id)),
    ),
  };
}

/**
 * One tool call of a session by its call id, or undefined. Call ids are unique per turn,
 * not always per session (scripted models number them per step): `turnId` narrows the
 * lookup, and without it the first recorded call wins, as the trace page's deep link does.
 */
export async function getSessionToolCall(db: Db, params: { sessionId: string; callId: string; turnId?: string }) {
  const select = db.prepared("tool_calls.getInSession", (o, { toolCalls, turns }) =>
    o
      .select({ call: toolCalls })
      .from(toolCalls)
      .innerJoin(turns, eq(turns.id, toolCalls.turnId))
      .where(
        and(
          eq(turns.sessionId, param("sessionId")),
          eq(toolCalls.callId, param("callId")),
          sql`(cast(${param("turnId")} as text) is null or ${toolCalls.turnId} = ${param("turnId")})`,
        ),
      )
      .orderBy(asc(turns.seq), asc(toolCalls.id))
      .limit(1),
  );
  const row = await select.get({ sessionId: params.sessionId, callId: params.callId, turnId: params.turnId ?? null });
  return row?.call;
}

/** Events of one turn after `afterSeq`, in order (to follow a turn that runs in the background). */
export function listTurnEvents(db: Db, params: { turnId: string; afterSeq?: number; limit?: number }) {
  const { events } = db.t;
  return db.all(
    db.orm
      .select()
      .from(events)
      .where(and(eq(events.turnId, params.turnId), gt(events.seq, params.afterSeq ?? 0)))
      .orderBy(asc(events.seq))
      .limit(params.limit ?? 500),
  );
}

/** The last event seq of a turn (to continue numbering after a resume). */
export async function lastEventSeq(db: Db, turnId: string): Promise<number> {
  const row = await db
    .prepared("events.lastSeq", (o, { events }) =>
      o
        .select({ seq: max(events.seq) })
        .from(events)
        .where(eq(events.turnId, param("turnId"))),
    )
    .get({ turnId });
  return row?.seq ?? 0;
}
