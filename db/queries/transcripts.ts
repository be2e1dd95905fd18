/** A session's transcript: the messages of its turns, in recorded order. */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../client";
import { messages } from "../schema";
import { jsonOrNull, param, prepared, rawParam, transaction } from "./prepared";

export type NewMessage = Omit<typeof messages.$inferInsert, "id">;

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
