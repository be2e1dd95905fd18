import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { json } from "./columns";
import { turns } from "./turns";

/** Every engine event, written as it happens (a crash loses nothing already emitted). */
export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey(),
    turnId: text("turn_id")
      .notNull()
      .references(() => turns.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    data: json<Record<string, unknown>>("data").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("events_turn_seq").on(t.turnId, t.seq)],
);

export type EventRow = typeof events.$inferSelect;
