/**
 * What a resume starts from, read back from the database: the turn's last checkpoint and its
 * call journal (DESIGN D9).
 */
import type { Db } from "@/db/client";
import { getCheckpoint, listJournal } from "@/db/queries/checkpoints";
import type { TurnRow } from "@/db/schema";
import type { CompletedCall, ResumeState, TurnCheckpoint } from "@/lib/engine/ports";

export interface LoadedResume {
  resume: ResumeState;
  /** The turn's subagent depth (0: a client started it). */
  depth: number;
}

/** The resume state of a turn. A turn without a checkpoint starts over from its user message. */
export function loadResumeState(db: Db, turn: TurnRow): LoadedResume {
  const row = getCheckpoint(db, turn.id);
  const checkpoint: TurnCheckpoint = row
    ? { ...row.state, completedCalls: [] }
    : { turnId: turn.id, step: -1, messages: [{ role: "user", content: turn.userMessage }], completedCalls: [] };
  const completed: CompletedCall[] = [];
  const inFlight: string[] = [];
  for (const entry of listJournal(db, turn.id)) {
    const place = { identity: entry.identity, step: entry.step, position: entry.position, callId: entry.callId, tool: entry.tool };
    if (entry.status === "completed" && entry.outcome) completed.push({ ...place, ...entry.outcome });
    else inFlight.push(entry.identity);
  }
  return { resume: { checkpoint, completed, inFlight }, depth: row?.depth ?? 0 };
}
