/**
 * Resume: POST /v1/turns/:id/resume, and at server start every turn a dead process left
 * running (plus waiting turns whose approval was decided or expired meanwhile).
 */
import type { Db } from "@/db/client";
import { listTurnsByStatus } from "@/db/queries/sessions";
import { log } from "@/lib/log";
import { expireDueApprovals } from "./approvals";
import type { EventListener } from "./turn-recorder";
import { pendingApproval, resumeInBackground, resumeTurn, type StartedTurn } from "./turn-run";

/** Resumes one turn for a client (404 unknown, 409 when it cannot be resumed now). */
export function resumeTurnForClient(db: Db, turnId: string, listener?: EventListener): StartedTurn {
  return resumeTurn(db, turnId, listener ? { listener } : {});
}

/**
 * Resumes, in the background, the turns this process should pick up at start: running
 * ones whose runner died (resumeTurn refuses a live runner's), and waiting ones that no
 * longer wait. Returns the ids it tried.
 */
export function resumeInterruptedTurns(db: Db): string[] {
  expireDueApprovals(db); // expiries resume their own turns
  const tried: string[] = [];
  for (const turn of listTurnsByStatus(db, ["running", "waiting"])) {
    if (turn.status === "waiting" && pendingApproval(db, turn.id)) continue;
    tried.push(turn.id);
    resumeInBackground(db, turn.id);
  }
  if (tried.length > 0) log.info("resuming interrupted turns", { turns: tried });
  return tried;
}
