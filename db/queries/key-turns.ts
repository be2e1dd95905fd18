/**
 * Turns a key started recently, for its rate limit (turns per minute). Counted from the
 * turns table itself (key_id, started_at; index turns_key_started), so every process
 * sharing the database sees the same count.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../database";
import { param } from "./prepared";

/**
 * The key's turns started after `since`, and when the window frees a slot: the start of
 * the turn whose leaving brings the count under `max` (the oldest one when exactly at it).
 */
export async function keyTurnsSince(
  db: Db,
  params: { keyId: string; since: number; max: number },
): Promise<{ count: number; freesAt: number | null }> {
  const counted = db.prepared("keyTurns.count", (o, { turns }) =>
    o
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(turns)
      .where(and(eq(turns.keyId, param("keyId")), gt(turns.startedAt, param("since")))),
  );
  const nth = db.prepared("keyTurns.nth", (o, { turns }) =>
    o
      .select({ startedAt: turns.startedAt })
      .from(turns)
      .where(and(eq(turns.keyId, param("keyId")), gt(turns.startedAt, param("since"))))
      .orderBy(asc(turns.startedAt))
      .limit(1)
      .offset(sql.placeholder("offset")),
  );
  const count = (await counted.get({ keyId: params.keyId, since: params.since }))?.n ?? 0;
  if (count < params.max) return { count, freesAt: null };
  const row = await nth.get({ keyId: params.keyId, since: params.since, offset: count - params.max });
  return { count, freesAt: row?.startedAt ?? null };
}
