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
  // The lists read newest first: one agent's sessions, one tenant's (a pinned key's), or all of
  // them (the Studio, an admin key); each reads its first rows from an index instead of sorting
  // every session.
  (t) => [
    index("sessions_agent_updated").on(t.agentId, t.updatedAt, t.id),
    index("sessions_tenant_updated").on(t.tenant, t.updatedAt, t.id),
    index("sessions_updated").on(t.updatedAt, t.id),
  ],
);

export type SessionRow = typeof sessions.$inferSelect;
