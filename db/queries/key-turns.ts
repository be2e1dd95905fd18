/**
 * Turns a key started recently, for its rate limit (turns per minute). Counted from the
 * turns table itself (key_id, started_at; index turns_key_started), so every process
 * sharing the database sees the same count.
 */
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { turns } from "../schema";
import { param, prepared } from "./prepared";

/**
 * The key's turns started after `since`, and when the window frees a slot: the start of
 * the turn whose leaving brings the count under `max` (the oldest one when exactly at it).
 */
export function keyTurnsSince(
  db: Db,
  params: { keyId: string; since: number; max: number },
): { count: number; freesAt: number | null } {
  const s = prepared(db, "keyTurns.since", (d) => ({
    count: d
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(turns)
      .where(and(eq(turns.keyId, param("keyId")), gt(turns.startedAt, param("since"))))
      .prepare(),
    nth: d
      .select({ startedAt: turns.startedAt })
      .from(turns)
      .where(and(eq(turns.keyId, param("keyId")), gt(turns.startedAt, param("since"))))
      .orderBy(asc(turns.startedAt))
      .limit(1)
      .offset(sql.placeholder("offset"))
      .prepare(),
  }));
  const count = s.count.get({ keyId: params.keyId, since: params.since })?.n ?? 0;
  if (count < params.max) return { count, freesAt: null };
  const row = s.nth.get({ keyId: params.keyId, since: params.since, offset: count - params.max });
  return { count, freesAt: row?.startedAt ?? null };
}
