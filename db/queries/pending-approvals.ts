/** Counting what waits for a human: the pending approvals (the metrics gauge, the Overview). */
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../database";

/** Pending, and of a tenant's sessions when `tenant` is given (a key pinned to a tenant). */
function pendingOf(db: Db, tenant: string | undefined) {
  const { approvals, sessions } = db.t;
  return and(
    eq(approvals.status, "pending"),
    tenant === undefined
      ? undefined
      : inArray(
          approvals.sessionId,
          db.orm.select({ id: sessions.id }).from(sessions).where(eq(sessions.tenant, tenant)),
        ),
  );
}

/** How many approvals are pending (indexed: approvals_status_expires). */
export async function countPendingApprovals(db: Db, tenant?: string): Promise<number> {
  const { approvals } = db.t;
  return (await db.get(db.orm.select({ n: count() }).from(approvals).where(pendingOf(db, tenant))))?.n ?? 0;
}

/** The oldest pending approvals (what waits longest first). */
export async function listPendingApprovals(db: Db, limit: number, tenant?: string) {
  const { approvals } = db.t;
  return db.all(
    db.orm
      .select({
        id: approvals.id,
        tool: approvals.tool,
        sessionId: approvals.sessionId,
        callId: approvals.callId,
        createdAt: approvals.createdAt,
        expiresAt: approvals.expiresAt,
      })
      .from(approvals)
      .where(pendingOf(db, tenant))
      .orderBy(asc(approvals.createdAt))
      .limit(limit),
  );
}
