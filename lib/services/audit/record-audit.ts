/**
 * The audit log (issue: access control): every write through the product records who, what,
 * when and from where. Call it inside the write's own transaction, so that a change and its
 * entry are committed together or not at all.
 */
import type { Db } from "@/db/database";
import { insertAuditEntry } from "@/db/queries/audit-log";
import type { Principal } from "@/lib/access/principal";

export interface AuditEntry {
  /** `<resource>.<verb>`: tool.put, tool.delete, agent.put, key.create, approval.decide… */
  action: string;
  /** `<resource>:<id>`: tool:lookup_cep, agent:support, key:key_…, mcp:github, config:insika.config.ts */
  target: string;
  /** A diff or a summary of the change; never a secret value (definitions hold references only). */
  summary?: unknown;
}

export async function recordAudit(db: Db, actor: Principal, entry: AuditEntry, now = Date.now()): Promise<void> {
  await insertAuditEntry(db, {
    at: now,
    actorKeyId: actor.keyId,
    actorName: actor.keyName,
    source: actor.source,
    action: entry.action,
    target: entry.target,
    summary: entry.summary ?? null,
  });
}
