/**
 * What a server process does once at start: open and migrate the database, make sure an
 * API token exists (printing a new one once), start the approval expiry timer and the turn
 * lease heartbeat, and resume the turns whose owner's lease expired, at start and then on
 * every heartbeat (DESIGN D9, turn-leases.ts; INSIKA_RESUME_ON_START=0 turns the automatic
 * resume off: turns are then resumed only on request, and leases are still renewed).
 */
import { getDb } from "@/db/client";
import { ensureBootstrapKey, tokenFile } from "@/lib/services/keys/bootstrap-key";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { startApprovalSweeper } from "@/lib/services/approvals/approvals";
import { resumeInterruptedTurns } from "@/lib/services/turns/resume-turn";
import { startTurnLeases } from "@/lib/services/turns/turn-leases";

export async function startServerProcess(): Promise<void> {
  try {
    const env = getEnv();
    const db = getDb(env);
    await db.ready();
    const token = await ensureBootstrapKey(db, { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir });
    if (token) console.log(`Generated an API token (shown once; saved to ${tokenFile(env.dataDir)}):\n  ${token}`);
    startApprovalSweeper(db, env.INSIKA_APPROVAL_TTL);
    startTurnLeases(db, env.INSIKA_RESUME_ON_START ? () => resumeInterruptedTurns(db) : undefined);
    if (env.INSIKA_RESUME_ON_START) {
      // After start-up, not during it: a resumed turn must not hold the server back.
      setImmediate(() => {
        resumeInterruptedTurns(db).catch((error: unknown) =>
          log.error("resuming interrupted turns failed", describeError(error)),
        );
      });
    }
  } catch (error) {
    log.error("server start failed", describeError(error));
    throw error;
  }
}
