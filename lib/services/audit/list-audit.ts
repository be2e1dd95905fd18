/** Reading the audit log back: GET /v1/audit and the Studio's Audit page. */
import { z } from "zod";
import { wholeNumberText } from "@/lib/services/whole-number-text";
import type { Db } from "@/db/database";
import { assertUnpinned, type Principal } from "@/lib/access/principal";
import { listAuditEntries } from "@/db/queries/audit-log";
import { isUnstorableText } from "@/db/database-errors";
import type { AuditRow } from "@/db/schema";

export const auditQuery = z
  .object({
    target: z.string().min(1).max(500).optional(),
    actor: z.string().min(1).max(200).optional(),
    action: z.string().min(1).max(100).optional(),
    since: z.iso.datetime({ offset: true }).optional(),
    before: wholeNumberText(1, Number.MAX_SAFE_INTEGER).optional(),
    limit: wholeNumberText(1, 500).default(100),
  })
  .strict();

/** The actions the product records (for the Studio's filter; the log itself is not limited to them). */
export const AUDIT_ACTIONS = [
  "tool.put",
  "tool.delete",
  "tool.restore",
  "manifest.apply",
  "mcp.import",
  "agent.put",
  "agent.delete",
  "skill.put",
  "skill.delete",
  "key.create",
  "key.revoke",
  "approval.decide",
  "config.apply",
] as const;

export type AuditQuery = z.infer<typeof auditQuery>;

export function presentAuditEntry(row: AuditRow) {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor: { key_id: row.actorKeyId, name: row.actorName },
    source: row.source,
    action: row.action,
    target: row.target,
    summary: row.summary,
  };
}

/** Entries newest first; `next_before` pages back when there may be more. */
export async function listAudit(db: Db, actor: Principal, query: AuditQuery) {
  assertUnpinned(actor, "reading the audit log");
  const rows = await listAuditEntries(db, {
    ...(query.target ? { target: query.target } : {}),
    ...(query.actor ? { actorKeyId: query.actor } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.since ? { since: Date.parse(query.since) } : {}),
    ...(query.before ? { before: query.before } : {}),
    limit: query.limit,
  });
  const entries = rows.map(presentAuditEntry);
  return { entries, next_before: rows.length === query.limit ? (rows[rows.length - 1]?.id ?? null) : null };
}

/**
 * listAudit for the Studio's Audit page: there a filter holding U+0000 selects no entry on
 * PostgreSQL, whose text cannot hold one and which refuses even to compare it (the page says
 * nothing matches, as a search on SQLite finds, instead of failing). GET /v1/audit answers
 * such a filter 400 on PostgreSQL, as the API does any text the database cannot take.
 */
export async function listAuditForPage(db: Db, actor: Principal, query: AuditQuery) {
  try {
    return await listAudit(db, actor, query);
  } catch (error) {
    if (isUnstorableText(error)) return { entries: [], next_before: null };
    throw error;
  }
}
