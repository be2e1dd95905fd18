/**
 * Per-key rate limit: a key with `turns_per_minute` may start that many turns in any
 * sliding 60 s window. The count is of the key's turn rows (turns.key_id), so it holds
 * across every process sharing the database; the check that guards the insert runs in
 * the insert's own transaction (db/queries/turns.ts insertTurn). Turns a turn starts
 * itself (subagents) carry no key and do not count.
 */
import type { Db } from "@/db/database";
import { keyTurnsSince } from "@/db/queries/key-turns";
import { RateLimitedError } from "@/db/queries/turns";
import type { Principal } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";

export const RATE_WINDOW_MS = 60_000;

/** The limit insertTurn enforces for this principal's turn, if it has one. */
export function turnRateLimit(principal: Principal): { max: number; windowMs: number } | undefined {
  return principal.turnsPerMinute === null ? undefined : { max: principal.turnsPerMinute, windowMs: RATE_WINDOW_MS };
}

/** The 429 for a key over its limit; `retry_after_s` (Retry-After) is when its oldest turn in the window leaves it. */
export function rateLimitedError(max: number, freesAt: number, now = Date.now()): DomainError {
  const retryAfterS = Math.max(1, Math.ceil((freesAt - now) / 1000));
  return new DomainError("rate_limited", `this key may start ${max} turns per minute; retry in ${retryAfterS}s`, {
    limit: max,
    retry_after_s: retryAfterS,
  });
}

/** Maps the insert's refusal to the 429; anything else passes through. */
export function asRateLimited(error: unknown): unknown {
  return error instanceof RateLimitedError ? rateLimitedError(error.max, error.freesAt) : error;
}

/**
 * Refuses early (before a session is created for the turn) when the key is already at its
 * limit; the insert checks again atomically, so this is a courtesy, not the guard.
 */
export async function assertWithinRateLimit(db: Db, principal: Principal, now = Date.now()): Promise<void> {
  const limit = turnRateLimit(principal);
  if (!limit) return;
  const recent = await keyTurnsSince(db, { keyId: principal.keyId, since: now - limit.windowMs, max: limit.max });
  if (recent.freesAt !== null) throw rateLimitedError(limit.max, recent.freesAt + limit.windowMs, now);
}
