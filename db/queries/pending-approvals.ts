/** Counting what waits for a human: the pending approvals (the metrics gauge, the Overview). */
import { asc, count, eq } from "drizzle-orm";
import type { Db } from "../client";
import { approvals } from "../schema";

/** How many approvals are pending (indexed: approvals_status_expires). */
export async function countPendingApprovals(db: Db): Promise<number> {
  return db.select({ n: count() }).from(approvals).where(eq(approvals.status, "pending")).get()?.n ?? 0;
}

/** The oldest pending approvals (what waits longest first). */
export async function listPendingApprovals(db: Db, limit: number) {
  return db
    .select({
      id: approvals.id,
      tool: approvals.tool,
      sessionId: approvals.sessionId,
      callId: approvals.callId,
      createdAt: approvals.createdAt,
      expiresAt: approvals.expiresAt,
    })
    .from(approvals)
    .where(eq(approvals.status, "pending"))
    .orderBy(asc(approvals.createdAt))
    .limit(limit)
    .all();
}
