import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, json } from "./columns";
import { sessions } from "./sessions";
import { turns } from "./turns";

export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "expired"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * A human decision one tool call waits for (DESIGN D8): one row per call, keyed by the turn
 * and the call identity (so a resumed turn finds its decision), expiring as a rejection.
 */
export const approvals = sqliteTable(
  "approvals",
  {
    id: text("id").primaryKey(),
    turnId: text("turn_id")
      .notNull()
      .references(() => turns.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    callId: text("call_id").notNull(),
    identity: text("identity").notNull(),
    tool: text("tool").notNull(),
    arguments: json<unknown>("arguments"),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull(),
    note: text("note"),
    createdAt: createdAt(),
    decidedAt: integer("decided_at"),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("approvals_turn_identity").on(t.turnId, t.identity),
    index("approvals_status_expires").on(t.status, t.expiresAt),
    // The lists, oldest first (GET /v1/approvals with and without ?status=): read in order, never sorted.
    index("approvals_status_created").on(t.status, t.createdAt, t.id),
    index("approvals_created").on(t.createdAt, t.id),
  ],
);

export type ApprovalRow = typeof approvals.$inferSelect;
