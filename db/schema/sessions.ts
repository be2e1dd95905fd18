import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { agents } from "./agents";

/** A conversation with one agent. `tenant` feeds `{{ctx.tenant}}` (the session id when absent). */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "restrict" }),
    tenant: text("tenant"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_agent_updated").on(t.agentId, t.updatedAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
