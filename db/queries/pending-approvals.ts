/** Counting what waits for a human: the pending approvals (the metrics gauge, the Overview). */
import { count, eq } from "drizzle-orm";
import type { Db } from "../client";
import { approvals } from "../schema";

/** How many approvals are pending (indexed: approvals_status_expires). */
export async function countPendingApprovals(db: Db): Promise<number> {
  return db.select({ n: count() }).from(approvals).where(eq(approvals.status, "pending")).get()?.n ?? 0;
}
