import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "../client";
import { approvals, type ApprovalRow, type ApprovalStatus } from "../schema";

/** Creates a pending approval; returns the existing one if this call already has one. */
export function insertApproval(db: Db, values: Omit<ApprovalRow, "status" | "note" | "decidedAt">): ApprovalRow {
  return db.transaction((tx) => {
    const existing = tx
      .select()
      .from(approvals)
      .where(and(eq(approvals.turnId, values.turnId), eq(approvals.identity, values.identity)))
      .get();
    if (existing) return existing;
    return tx
      .insert(approvals)
      .values({ ...values, status: "pending" })
      .returning()
      .get();
  });
}

export function getApproval(db: Db, id: string): ApprovalRow | undefined {
  return db.select().from(approvals).where(eq(approvals.id, id)).get();
}

/** The approval of one call of a turn (by call identity), or undefined. */
export function getApprovalForCall(db: Db, params: { turnId: string; identity: string }): ApprovalRow | undefined {
  return db
    .select()
    .from(approvals)
    .where(and(eq(approvals.turnId, params.turnId), eq(approvals.identity, params.identity)))
    .get();
}

/** Approvals, oldest first, optionally in one status. */
export function listApprovals(db: Db, params: { status?: ApprovalStatus; limit?: number } = {}): ApprovalRow[] {
  return db
    .select()
    .from(approvals)
    .where(params.status ? eq(approvals.status, params.status) : undefined)
    .orderBy(asc(approvals.createdAt), asc(approvals.id))
    .limit(params.limit ?? 500)
    .all();
}

/** Records a decision on a pending approval; undefined when it was no longer pending. */
export function decideApproval(
  db: Db,
  params: { id: string; status: Exclude<ApprovalStatus, "pending">; note?: string | null; now?: number },
): ApprovalRow | undefined {
  return db
    .update(approvals)
    .set({ status: params.status, note: params.note ?? null, decidedAt: params.now ?? Date.now() })
    .where(and(eq(approvals.id, params.id), eq(approvals.status, "pending")))
    .returning()
    .get();
}

/** Marks every pending approval whose time is up as expired; returns them. */
export function expireApprovals(db: Db, now = Date.now()): ApprovalRow[] {
  return db
    .update(approvals)
    .set({ status: "expired", decidedAt: now })
    .where(and(eq(approvals.status, "pending"), lte(approvals.expiresAt, now)))
    .returning()
    .all();
}
