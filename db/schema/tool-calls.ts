import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { json } from "./columns";
import { turns } from "./turns";

/** One row per tool call: the call record the trace shows (secrets already masked). */
export const toolCalls = sqliteTable(
  "tool_calls",
  {
    id: integer("id").primaryKey(),
    turnId: text("turn_id")
      .notNull()
      .references(() => turns.id, { onDelete: "cascade" }),
    callId: text("call_id").notNull(),
    tool: text("tool").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    startedAt: integer("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    queuedMs: integer("queued_ms").notNull(),
    record: json<Record<string, unknown>>("record").notNull(),
  },
  (t) => [index("tool_calls_turn").on(t.turnId, t.id)],
);

export type ToolCallRow = typeof toolCalls.$inferSelect;
