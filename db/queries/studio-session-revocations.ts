// Revoked Studio sessions, kept in the settings table (one row per session id, its value
// the cookie's expiry) until the cookie would have expired anyway.
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { settings } from "../schema";

const PREFIX = "studio_session_revoked:";

/** Marks a session id revoked until `expiresAt`, and forgets revocations already past their expiry. */
export function revokeStudioSession(db: Db, sessionId: string, expiresAt: number, now = Date.now()): void {
  db.transaction((tx) => {
    tx.delete(settings)
      .where(
        and(
          sql`substr(${settings.key}, 1, ${PREFIX.length}) = ${PREFIX}`,
          lt(sql`CAST(${settings.value} AS INTEGER)`, now),
        ),
      )
      .run();
    tx.insert(settings)
      .values({ key: `${PREFIX}${sessionId}`, value: String(expiresAt), updatedAt: now })
      .onConflictDoNothing()
      .run();
  });
}

/** True when the session id was revoked (signed out). */
export function isStudioSessionRevoked(db: Db, sessionId: string): boolean {
  return (
    db
      .select({ key: settings.key })
      .from(settings)
      .where(eq(settings.key, `${PREFIX}${sessionId}`))
      .get() !== undefined
  );
}
