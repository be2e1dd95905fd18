import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { json } from "./columns";
import { sessions } from "./sessions";

export const TURN_STATUSES = ["running", "completed", "halted", "waiting", "failed"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** One user message and everything the engine did to answer it. */
export const turns = sqliteTable(
  "turns",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    status: text("status", { enum: TURN_STATUSES }).notNull(),
    userMessage: text("user_message").notNull(),
    content: text("content"),
    error: text("error"),
    usage: json<{ inputTokens?: number; outputTokens?: number }>("usage"),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at"),
    /** The API key that started the turn (null: started before keys existed, or by a subagent's parent). */
    keyId: text("key_id"),
    /**
     * The turn whose spawn_subagent(s) call started this one (null: a client started it). Not a
     * foreign key: the child lives in a session of its own, which must outlive the parent's
     * session being deleted, and an id left dangling still says the turn was a subagent's.
     */
    parentTurnId: text("parent_turn_id"),
  },
  (t) => [
    index("turns_session_seq").on(t.sessionId, t.seq),
    index("turns_status").on(t.status),
    // The few turns still going, by session: whether a session is busy, without walking its turns.
    index("turns_unfinished")
      .on(t.sessionId)
      .where(sql`status in ('running', 'waiting')`),
    index("turns_key_started").on(t.keyId, t.startedAt),
    index("turns_started").on(t.startedAt),
    // A turn's children, to count its subtree when a turn resumes; only subagents' turns are
    // in it, so a client's turn start writes nothing more to it.
    index("turns_parent")
      .on(t.parentTurnId)
      .where(sql`parent_turn_id is not null`),
  ],
);

export type TurnRow = typeof turns.$inferSelect;
