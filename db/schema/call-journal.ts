import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { CompletedCall } from "@/lib/engine/ports";
import { json } from "./columns";
import { turns } from "./turns";

/** The final result of a journaled call, as resume reuses it. */
export type JournaledOutcome = Pick<CompletedCall, "ok" | "content" | "error" | "halt" | "promote">;

/**
 * What a `started` row keeps in `outcome` until the result is final: the call record's
 * "what was sent" half (kind, arguments, the request with secrets masked), for the trace
 * of a call whose outcome is lost in a crash. Replaced by the JournaledOutcome on completion.
 */
export interface JournaledStart {
  sent: Record<string, unknown>;
}

/**
 * The call journal (DESIGN D9): a row is written `started` before a call is sent and becomes
 * `completed` with its outcome when the result is final. On resume, `started` means "the
 * outcome is unknown". Keyed by the call identity, never by the provider's call id.
 * `outcome` holds a JournaledStart while started, the JournaledOutcome once completed.
 */
export const callJournal = sqliteTable(
  "call_journal",
  {
    turnId: text("turn_id")
      .notNull()
      .references(() => turns.id, { onDelete: "cascade" }),
    identity: text("identity").notNull(),
    step: integer("step").notNull(),
    position: integer("position").notNull(),
    tool: text("tool").notNull(),
    callId: text("call_id").notNull(),
    status: text("status", { enum: ["started", "completed"] }).notNull(),
    outcome: json<JournaledOutcome | JournaledStart>("outcome"),
    startedAt: integer("started_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.identity] })],
);

export type CallJournalRow = typeof callJournal.$inferSelect;
