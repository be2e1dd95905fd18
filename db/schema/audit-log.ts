import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, json } from "./columns";

/**
 * Every write through the product: who (key id and name), what (action, target, a summary or
 * diff), when, and from where. Append-only: the product inserts rows and never updates or
 * deletes one.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey(),
    at: createdAt(),
    actorKeyId: text("actor_key_id").notNull(),
    actorName: text("actor_name").notNull(),
    source: text("source", { enum: ["api", "studio", "cli", "config"] }).notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    summary: json<unknown>("summary"),
  },
  (t) => [
    index("audit_log_at").on(t.at),
    index("audit_log_target").on(t.target, t.at),
    index("audit_log_actor").on(t.actorKeyId, t.at),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
