import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { json } from "./columns";
import { sessions } from "./sessions";
import { turns } from "./turns";

/** The transcript: what the model was sent and said, in the order it was recorded. */
export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    turnId: text("turn_id")
      .notNull()
      .references(() => turns.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["system", "user", "assistant", "tool"] }).notNull(),
    content: text("content").notNull(),
    toolCalls: json<{ id: string; name: string; arguments: string }[]>("tool_calls"),
    callId: text("call_id"),
    tool: text("tool"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("messages_session_id").on(t.sessionId, t.id), index("messages_turn").on(t.turnId, t.id)],
);

export type MessageRow = typeof messages.$inferSelect;
