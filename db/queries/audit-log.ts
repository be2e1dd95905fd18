import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "../database";
import type { AuditRow } from "../schema";

export type AuditValues = Omit<AuditRow, "id">;

/** Appends one entry. There is no update and no delete: the log is append-only through the product. */
export async function insertAuditEntry(db: Db, values: AuditValues): Promise<void> {
  const { auditLog } = db.t;
  await db.run(db.orm.insert(auditLog).values(values));
}

export interface AuditFilter {
  target?: string;
  actorKeyId?: string;
  action?: string;
  since?: number;
  /** Entries with an id below this one (paging back). */
  before?: number;
  limit: number;
}

/** Entries newest first, filtered. */
export function listAuditEntries(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
  const { auditLog } = db.t;
  const where: SQL[] = [];
  if (filter.target) where.push(eq(auditLog.target, filter.target));
  if (filter.actorKeyId) where.push(eq(auditLog.actorKeyId, filter.actorKeyId));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.since !== undefined) where.push(gte(auditLog.at, filter.since));
  if (filter.before !== undefined) where.push(lt(auditLog.id, filter.before));
  return db.all(
    db.orm
      .select()
      .from(auditLog)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(auditLog.id))
      .limit(filter.limit),
  );
}
