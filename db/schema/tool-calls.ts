import { sql } from "drizzle-orm";
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
  (t) => [
    index("tool_calls_turn").on(t.turnId, t.id),
    // The Overview and a tool's page (db/queries/overview.ts), all covering: calls per time
    // bucket, one tool's calls per bucket, and durations per tool in group-by order (no sort).
    index("tool_calls_started").on(t.startedAt, t.ok),
    index("tool_calls_tool_started").on(t.tool, t.startedAt, t.ok),
    index("tool_calls_tool_duration").on(t.tool, t.ok, t.durationMs, t.startedAt),
    // Egress refusals are few: a partial index finds them without reading every record.
    index("tool_calls_blocked")
      .on(t.startedAt)
      .where(sql`json_extract(${t.record}, '$.egress.verdict') = 'blocked'`),
  ],
);

export type ToolCallRow = typeof toolCalls.$inferSelect;
