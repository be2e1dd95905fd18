/** A session's transcript: the messages of its turns, in recorded order. */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../database";
import type { messages } from "../schema";
import { holdRow, holdsRows, type HeldTable } from "./held-rows";
import { jsonOrNull, param, rawParam, storableText } from "./prepared";

export type NewMessage = Omit<typeof messages.$inferInsert, "id">;

/** Appends transcript messages in order, in one transaction (the caller's, when it has one). */
export async function insertMessages(db: Db, rows: NewMessage[]): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length > 1 && !db.inTransaction) return db.transaction((tx) => insertMessages(tx, rows));
  const insert = db.prepared("messages.insert", (o, { messages }) =>
    o.insert(messages).values({
      sessionId: param("sessionId"),
      turnId: param("turnId"),
      role: param("role"),
      content: param("content"),
      toolCalls: rawParam("toolCalls"),
      callId: param("callId"),
      tool: param("tool"),
      createdAt: param("createdAt"),
    }),
  );
  for (const r of rows) {
    const values = {
      ...r,
      content: storableText(db, r.content),
      toolCalls: jsonOrNull(r.toolCalls),
      callId: r.callId ?? null,
      tool: r.tool ?? null,
    };
    if (holdsRows(db)) holdRow(db, MESSAGES, messageRow(values));
    else await insert.run(values);
  }
}

/** A transcript row in database column names (for holdRow). */
function messageRow(
  m: Omit<NewMessage, "toolCalls" | "callId" | "tool"> & {
    toolCalls: string | null;
    callId: string | null;
    tool: string | null;
  },
) {
  return {
    session_id: m.sessionId,
    turn_id: m.turnId,
    role: m.role,
    content: m.content,
    tool_calls: m.toolCalls,
    call_id: m.callId,
    tool: m.tool,
    created_at: m.createdAt,
  };
}

const MESSAGES: HeldTable = {
  name: "messages",
  columns: [
    ["session_id", "text"],
    ["turn_id", "text"],
    ["role", "text"],
    ["content", "text"],
    ["tool_calls", "text"],
    ["call_id", "text"],
    ["tool", "text"],
    ["created_at", "bigint"],
  ],
};

/** The transcript of a session in recorded order. */
export function listMessages(db: Db, sessionId: string) {
  return db
    .prepared("messages.list", (o, { messages }) =>
      o
        .select()
        .from(messages)
        .where(eq(messages.sessionId, param("sessionId")))
        .orderBy(asc(messages.id)),
    )
    .all({ sessionId });
}

/** The messages of the given turns (a page of a session's), in recorded order: one index probe per turn. */
export async function listTurnMessages(db: Db, turnIds: string[]) {
  if (turnIds.length === 0) return [];
  const { messages } = db.t;
  return db.all(db.orm.select().from(messages).where(inArray(messages.turnId, turnIds)).orderBy(asc(messages.id)));
}

/**
 * The messages of a session's finished turns (completed or halted), in recorded order: what
 * the model is sent as history. One statement: a turn still running or waiting, failed or
 * cancelled is left out.
 */
export function listFinishedTurnMessages(db: Db, sessionId: string) {
  return db
    .prepared("messages.finishedTurns", (o, { messages, turns }) =>
      o
        .select()
        .from(messages)
        .where(
          and(
            eq(messages.sessionId, param("sessionId")),
            inArray(
              messages.turnId,
              o
                .select({ id: turns.id })
                .from(turns)
                .where(and(eq(turns.sessionId, param("sessionId")), inArray(turns.status, ["completed", "halted"]))),
            ),
          ),
        )
        .orderBy(asc(messages.id)),
    )
    .all({ sessionId });
}
