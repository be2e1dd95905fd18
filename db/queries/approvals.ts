import { and, asc, eq, inArray, lte, type SQL } from "drizzle-orm";
import type { Db } from "../database";
import type { ApprovalRow, ApprovalStatus } from "../schema";
import { sessionWhere, type SessionFilter } from "./sessions";

/** Creates a pending approval; returns the existing one if this call already has one. */
export async function insertApproval(
  db: Db,
  values: Omit<ApprovalRow, "status" | "note" | "decidedAt">,
): Promise<ApprovalRow> {
  const { approvals } = db.t;
  // One statement decides, so two instances asking for the same call get the same row.
  const inserted = await db.get(
    db.orm
      .insert(approvals)
      .values({ ...values, status: "pending" })
      .onConflictDoNothing({ target: [approvals.turnId, approvals.identity] })
      .returning(),
  );
  return inserted ?? (await getApprovalForCall(db, values))!;
}

export function getApproval(db: Db, id: string): Promise<ApprovalRow | undefined> {
  const { approvals } = db.t;
  return db.get(db.orm.select().from(approvals).where(eq(approvals.id, id)));
}

/** The approval of one call of a turn (by call identity), or undefined. */
export function getApprovalForCall(
  db: Db,
  params: { turnId: string; identity: string },
): Promise<ApprovalRow | undefined> {
  const { approvals } = db.t;
  return db.get(
    db.orm
      .select()
      .from(approvals)
      .where(and(eq(approvals.turnId, params.turnId), eq(approvals.identity, params.identity))),
  );
}

/**
 * Approvals, oldest first, optionally in one status, of one session, and only of the sessions
 * `sessions` selects (a key's tenant and agents).
 */
export function listApprovals(
  db: Db,
  params: { status?: ApprovalStatus; limit?: number; sessionId?: string; sessions?: SessionFilter } = {},
): Promise<ApprovalRow[]> {
  const { approvals, sessions } = db.t;
  const ofSessions = params.sessions && sessionWhere(db.t, params.sessions);
  return db.all(
    db.orm
      .select()
      .from(approvals)
      .where(
        and(
          params.status ? eq(approvals.status, params.status) : undefined,
          params.sessionId !== undefined ? eq(approvals.sessionId, params.sessionId) : undefined,
          ofSessions
            ? inArray(approvals.sessionId, db.orm.select({ id: sessions.id }).from(sessions).where(ofSessions))
            : undefined,
        ),
      )
      .orderBy(asc(approvals.createdAt), asc(approvals.id))
      .limit(params.limit ?? 500),
  );
}

/** Records a decision on a pending approval; undefined when it was no longer pending (one statement: two deciders cannot both win). */
export function decideApproval(
  db: Db,
  params: { id: string; status: Exclude<ApprovalStatus, "pending">; note?: string | null; now?: number },
): Promise<ApprovalRow | undefined> {
  const { approvals } = db.t;
  return db.get(
    db.orm
      .update(approvals)
      .set({ status: params.status, note: params.note ?? null, decidedAt: params.now ?? Date.now() })
      .where(and(eq(approvals.id, params.id), eq(approvals.status, "pending")))
      .returning(),
  );
}

/**
 * Withdraws a pending approval whose call will never run (its MCP client cancelled the call):
 * it ends expired, `note` saying why, so nobody can approve it into nothing. Undefined when it
 * was no longer pending (one statement: a decision that landed first stands).
 */
export function withdrawApproval(
  db: Db,
  params: { id: string; note: string; now?: number },
): Promise<ApprovalRow | undefined> {
  return db.get(withdrawPending(db, eq(db.t.approvals.id, params.id), params));
}

/** Withdraws (as withdrawApproval) every approval of a turn that ended without running its calls. */
export function withdrawTurnApprovals(
  db: Db,
  params: { turnId: string; note: string; now?: number },
): Promise<ApprovalRow[]> {
  return db.all(withdrawPending(db, eq(db.t.approvals.turnId, params.turnId), params));
}

/** The update that ends the pending approvals `which` selects as expired, returning them. */
function withdrawPending(db: Db, which: SQL, params: { note: string; now?: number }) {
  const { approvals } = db.t;
  return db.orm
    .update(approvals)
    .set({ status: "expired", note: params.note, decidedAt: params.now ?? Date.now() })
    .where(and(which, eq(approvals.status, "pending")))
    .returning();
}

/** Marks every pending approval whose time is up as expired; returns them. */
export function expireApprovals(db: Db, now = Date.now()): Promise<ApprovalRow[]> {
  const { approvals } = db.t;
  return db.all(
    db.orm
      .update(approvals)
      .set({ status: "expired", decidedAt: now })
      .where(and(eq(approvals.status, "pending"), lte(approvals.expiresAt, now)))
      .returning(),
  );
}
