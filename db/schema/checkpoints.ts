import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { TurnCheckpoint } from "@/lib/engine/ports";
import { json, updatedAt } from "./columns";
import { turns } from "./turns";

/** The checkpoint as stored: completed calls live in call_journal, not here. */
export type StoredCheckpoint = Omit<TurnCheckpoint, "completedCalls">;

/**
 * One row per turn: where to resume it (DESIGN D9). Written when the turn starts and after
 * every step; `depth` is the subagent depth (0 for a turn a client started) and
 * `runner_pid` the process running the turn, so a resume never races a live runner.
 */
export const checkpoints = sqliteTable("checkpoints", {
  turnId: text("turn_id")
    .primaryKey()
    .references(() => turns.id, { onDelete: "cascade" }),
  step: integer("step").notNull(),
  state: json<StoredCheckpoint>("state").notNull(),
  depth: integer("depth").notNull(),
  runnerPid: integer("runner_pid"),
  updatedAt: updatedAt(),
});

export type CheckpointRow = typeof checkpoints.$inferSelect;
