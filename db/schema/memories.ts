import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { agents } from "./agents";

/** What an agent chose to `remember`, per tenant; shown back to it in later turns. */
export const memories = sqliteTable(
  "memories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "restrict" }),
    tenant: text("tenant").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("memories_agent_tenant").on(t.agentId, t.tenant, t.id)],
);

export type MemoryRow = typeof memories.$inferSelect;
