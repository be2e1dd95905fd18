/**
 * A pending approval of a `pay` call, as the approval tests seed one: id "apr_1", asked now,
 * expiring after `ttlMs`. The turn and session it names must exist already.
 */
import type { Db } from "@/db/database";
import { insertApproval } from "@/db/queries/approvals";

export function insertPendingApproval(
  db: Db,
  of: { turnId: string; sessionId: string; callId: string; identity?: string; arguments?: Record<string, unknown> },
  ttlMs = 60_000,
) {
  const now = Date.now();
  return insertApproval(db, {
    id: "apr_1",
    turnId: of.turnId,
    sessionId: of.sessionId,
    callId: of.callId,
    identity: of.identity ?? of.callId,
    tool: "pay",
    arguments: of.arguments ?? {},
    createdAt: now,
    expiresAt: now + ttlMs,
  });
}
