/** Read model for the Studio's Approvals page: pending approvals with their age and time left. */
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { listApprovalsPresented, listSessionPendingApprovals, type presentApproval } from "./approvals";

export interface PendingApprovalRow {
  id: string;
  tool: string;
  arguments: unknown;
  session_id: string;
  turn_id: string;
  call_id: string;
  created_at: string | null;
  expires_at: string | null;
  age_ms: number;
  /** Milliseconds until it expires (as a rejection); null when it has no deadline. */
  expires_in_ms: number | null;
}

/** The pending approvals `principal` may see, oldest first (expired ones are marked expired before the list is read). */
export async function listPendingApprovalRows(
  db: Db,
  principal: Principal,
  now = Date.now(),
): Promise<PendingApprovalRow[]> {
  return (await listApprovalsPresented(db, principal, "pending")).map((a) => pendingRow(a, now));
}

/** The pending approvals of one session `principal` may see (maySeeSession), oldest first. */
export async function listSessionPendingApprovalRows(
  db: Db,
  principal: Principal,
  sessionId: string,
  now = Date.now(),
): Promise<PendingApprovalRow[]> {
  return (await listSessionPendingApprovals(db, principal, sessionId)).map((a) => pendingRow(a, now));
}

function pendingRow(a: ReturnType<typeof presentApproval>, now: number): PendingApprovalRow {
  return {
    id: a.id,
    tool: a.tool,
    arguments: a.arguments,
    session_id: a.session_id,
    turn_id: a.turn_id,
    call_id: a.call_id,
    created_at: a.created_at,
    expires_at: a.expires_at,
    age_ms: a.created_at ? Math.max(0, now - Date.parse(a.created_at)) : 0,
    expires_in_ms: a.expires_at ? Math.max(0, Date.parse(a.expires_at) - now) : null,
  };
}
