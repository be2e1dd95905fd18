/**
 * Resume: POST /v1/turns/:id/resume, and the resume pass (at server start, then on every
 * lease heartbeat): every running turn whose lease expired (its owner died, or stalled
 * past its lease), plus waiting turns whose approval was decided or expired meanwhile.
 */
import type { Db } from "@/db/client";
import { listResumableTurns } from "@/db/queries/checkpoints";
import { log } from "@/lib/log";
import { isTurnActive } from "./active-turns";
import { expireDueApprovals } from "@/lib/services/approvals/approvals";
import type { EventListener } from "./turn-recorder";
import { pendingApproval, resumeInBackground, resumeTurn, type StartedTurn } from "./launch-turn";

/** Resumes one turn for a client (404 unknown, 409 when it cannot be resumed now). */
export function resumeTurnForClient(db: Db, turnId: string, listener?: EventListener): StartedTurn {
  return resumeTurn(db, turnId, listener ? { listener } : {});
}

/**
 * Resumes, in the background, the turns this process may pick up now: running ones whose
 * lease has expired (claimTurn takes each atomically; a lease still held is skipped), and
 * waiting ones that no longer wait. Returns the ids it tried.
 */
export function resumeInterruptedTurns(db: Db, now = Date.now()): string[] {
  expireDueApprovals(db, now); // expiries resume their own turns
  const tried: string[] = [];
  for (const turn of listResumableTurns(db, now)) {
    if (isTurnActive(turn.id)) continue;
    if (turn.status === "waiting" && pendingApproval(db, turn.id)) continue;
    tried.push(turn.id);
    resumeInBackground(db, turn.id);
  }
  if (tried.length > 0) log.info("resuming interrupted turns", { turns: tried });
  return tried;
}
