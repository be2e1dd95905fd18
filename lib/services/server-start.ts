/**
 * What a server process does once at start: open and migrate the database, make sure an
 * API token exists (printing a new one once), start the approval expiry timer, and resume
 * the turns a dead process left running (DESIGN D9; INSIKA_RESUME_ON_START=0 turns that off).
 */
import { getDb } from "@/db/client";
import { ensureApiToken, tokenFile } from "@/lib/api/auth";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { startApprovalSweeper } from "./approvals";
import { resumeInterruptedTurns } from "./resume-turn";

export async function startServerProcess(): Promise<void> {
  try {
    const env = getEnv();
    const db = getDb(env.dataDir);
    const token = ensureApiToken(db, { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir });
    if (token) console.log(`Generated an API token (shown once; saved to ${tokenFile(env.dataDir)}):\n  ${token}`);
    startApprovalSweeper(db, env.INSIKA_APPROVAL_TTL);
    if (env.INSIKA_RESUME_ON_START) {
      // After start-up, not during it: a resumed turn must not hold the server back.
      setImmediate(() => {
        try {
          resumeInterruptedTurns(db);
        } catch (error) {
          log.error("resuming interrupted turns failed", describeError(error));
        }
      });
    }
  } catch (error) {
    log.error("server start failed", describeError(error));
    throw error;
  }
}
