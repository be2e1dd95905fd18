// Revoked Studio sessions, kept in the settings table (one row per session id, its value
// the cookie's expiry) until the cookie would have expired anyway.
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../database";

const PREFIX = "studio_session_revoked:";

/** Marks a session id revoked until `expiresAt`, and forgets revocations already past their expiry. */
export async function revokeStudioSession(db: Db, sessionId: string, expiresAt: number, now = Date.now()) {
  await db.transaction(async (tx) => {
    const { settings } = tx.t;
    await tx.run(
      tx.orm
        .delete(settings)
        .where(
          and(
            sql`substr(${settings.key}, 1, ${PREFIX.length}) = ${PREFIX}`,
            lt(sql`CAST(${settings.value} AS BIGINT)`, now),
          ),
        ),
    );
    await tx.run(
      tx.orm
        .insert(settings)
        .values({ key: `${PREFIX}${sessionId}`, value: String(expiresAt), updatedAt: now })
        .onConflictDoNothing(),
    );
  });
}

/** True when the session id was revoked (signed out). */
export async function isStudioSessionRevoked(db: Db, sessionId: string): Promise<boolean> {
  const { settings } = db.t;
  const row = await db.get(
    db.orm
      .select({ key: settings.key })
      .from(settings)
      .where(eq(settings.key, `${PREFIX}${sessionId}`)),
  );
  return row !== undefined;
}
