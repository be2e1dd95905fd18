/**
 * What a server process does once at start: open and migrate the database and
 * make sure an API token exists (printing a new one once).
 */
import { getDb } from "@/db/client";
import { ensureApiToken, tokenFile } from "@/lib/api/auth";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";

export async function startServerProcess(): Promise<void> {
  try {
    const env = getEnv();
    const db = getDb(env.dataDir);
    const token = ensureApiToken(db, { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir });
    if (token) console.log(`Generated an API token (shown once; saved to ${tokenFile(env.dataDir)}):\n  ${token}`);
  } catch (error) {
    log.error("server start failed", describeError(error));
    throw error;
  }
}
