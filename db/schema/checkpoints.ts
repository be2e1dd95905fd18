import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { TurnCheckpoint } from "@/lib/engine/ports";
import { json, updatedAt } from "./columns";
import { turns } from "./turns";

/** The checkpoint as stored: completed calls live in call_journal, not here. */
export type StoredCheckpoint = Omit<TurnCheckpoint, "completedCalls">;

/**
 * One row per turn: where to resume it (DESIGN D9). Written when the turn starts and after
 * every step; `depth` is the subagent depth (0 for a turn a client started).
 *
 * Ownership of a running turn is a lease: `runner_instance` is the random id of the process
 * start that runs it, `lease_expires_at` (ms) how long that claim holds unless its owner
 * renews it (turn-leases.ts). Another process takes a turn over only once the lease has
 * expired, never because a PID looks dead or alive. `runner_pid` is informational (for an
 * operator reading a 409), never used to decide.
 */
export const checkpoints = sqliteTable("checkpoints", {
  turnId: text("turn_id")
    .primaryKey()
    .references(() => turns.id, { onDelete: "cascade" }),
  step: integer("step").notNull(),
  state: json<StoredCheckpoint>("state").notNull(),
  depth: integer("depth").notNull(),
  runnerPid: integer("runner_pid"),
  runnerInstance: text("runner_instance"),
  leaseExpiresAt: integer("lease_expires_at"),
  updatedAt: updatedAt(),
});

export type CheckpointRow = typeof checkpoints.$inferSelect;
