/**
 * Approvals over the API (DESIGN D8): list them, decide one (the waiting turn then goes on
 * in the background), and expire the ones nobody decided in time — as rejections — both on
 * demand and from a timer in the server process.
 */
import { z } from "zod";
import type { Db } from "@/db/database";
import { hasAnyScope, maySeeApproval, type Principal } from "@/lib/access/principal";
import { recordAudit } from "@/lib/services/audit/record-audit";
import {
  decideApproval as recordDecision,
  expireApprovals,
  getApproval,
  listApprovals,
  withdrawApproval,
} from "@/db/queries/approvals";
import { getTurn } from "@/db/queries/turns";
import { getSession, type SessionFilter } from "@/db/queries/sessions";
import { getVisibleSessionOrThrow } from "@/lib/services/sessions/session-access";
import type { ApprovalRow, ApprovalStatus } from "@/db/schema";
import { DomainError, notFound } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { isTurnActive } from "@/lib/services/turns/active-turns";
import { resumeInBackground } from "@/lib/services/turns/resume-turn";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The API shape of an approval. */
export function presentApproval(row: ApprovalRow) {
  return {
    id: row.id,
    turn_id: row.turnId,
    session_id: row.sessionId,
    call_id: row.callId,
    tool: row.tool,
    arguments: row.arguments,
    status: row.status,
    note: row.note,
    created_at: iso(row.createdAt),
    decided_at: iso(row.decidedAt),
    expires_at: iso(row.expiresAt),
  };
}

/** Expires what is due (each expiry resumes its turn, as a rejection); returns how many. */
export async function expireDueApprovals(db: Db, now = Date.now()): Promise<number> {
  const expired = await expireApprovals(db, now);
  for (const row of expired) await continueTurn(db, row.turnId);
  return expired.length;
}

/** The sessions whose approvals `principal` may see (maySeeApproval), as a list filter; undefined: all. */
function visibleApprovalSessions(principal: Principal): SessionFilter | undefined {
  if (!hasAnyScope(principal, ["approvals:decide", "traces:read"])) return { agentIds: [] };
  return principal.tenant === null ? undefined : { tenant: principal.tenant };
}

/**
 * The approval, if `principal` may see it (maySeeApproval); not found otherwise, whether or not
 * it exists, so a key of one tenant learns nothing of another's approvals.
 */
async function getVisibleApproval(db: Db, principal: Principal, id: string): Promise<ApprovalRow> {
  const row = await getApproval(db, id);
  const session = row ? await getSession(db, row.sessionId) : undefined;
  if (!row || !session || !maySeeApproval(principal, session)) throw notFound(`approval '${id}'`);
  return row;
}

/** The approvals `principal` may see, oldest first, optionally in one status (expiry applied first). */
export async function listApprovalsPresented(db: Db, principal: Principal, status?: ApprovalStatus) {
  await expireDueApprovals(db);
  const sessions = visibleApprovalSessions(principal);
  return (await listApprovals(db, { ...(status ? { status } : {}), ...(sessions ? { sessions } : {}) })).map(
    presentApproval,
  );
}

/**
 * The pending approvals of a session `principal` may see (maySeeSession): what its turns wait
 * for, whatever the key's approval scopes (the playground says so); not found otherwise.
 */
export async function listSessionPendingApprovals(db: Db, principal: Principal, sessionId: string) {
  await getVisibleSessionOrThrow(db, principal, sessionId);
  await expireDueApprovals(db);
  return (await listApprovals(db, { status: "pending", sessionId })).map(presentApproval);
}

/** One approval `principal` may see (expiry applied first). */
export async function getApprovalOrThrow(db: Db, principal: Principal, id: string) {
  await expireDueApprovals(db);
  return presentApproval(await getVisibleApproval(db, principal, id));
}

/** A decision as POST /v1/approvals/:id takes it (and the Studio's decide action). */
export const decisionBody = z
  .object({ decision: z.enum(["approved", "rejected"]), note: z.string().max(2000).optional() })
  .strict();

type Decision = z.infer<typeof decisionBody>;

/**
 * Records `actor`'s decision and lets the waiting turn go on; not found for an approval the
 * actor may not see, 409 if it was already decided or expired.
 */
export async function decideApproval(db: Db, actor: Principal, id: string, params: Decision) {
  await expireDueApprovals(db);
  return recordDecisionBy(db, actor, await getVisibleApproval(db, actor, id), params);
}

/**
 * Records the answer of the MCP client whose own call waits on approval `id` (elicitation): the
 * client asked for that call, so its answer decides whatever its key's approval scopes; the id
 * comes from the server, never from the client. 409 if it was already decided or expired.
 */
export async function answerOwnApproval(db: Db, actor: Principal, id: string, params: Decision) {
  await expireDueApprovals(db);
  const existing = await getApproval(db, id);
  if (!existing) throw notFound(`approval '${id}'`);
  return recordDecisionBy(db, actor, existing, params);
}

async function recordDecisionBy(db: Db, actor: Principal, existing: ApprovalRow, params: Decision) {
  const { id } = existing;
  if (existing.status === "pending") await refuseIfTurnEnded(db, existing);
  const row = await db.transaction(async (tx) => {
    const decided = await recordDecision(tx, { id, status: params.decision, note: params.note ?? null });
    if (decided) {
      await recordAudit(tx, actor, {
        action: "approval.decide",
        target: `approval:${id}`,
        summary: { decision: params.decision, tool: decided.tool, turn_id: decided.turnId, note: params.note ?? null },
      });
    }
    return decided;
  });
  if (!row) {
    const now = await getApproval(db, id);
    throw new DomainError("conflict", `approval ${id} is already ${now?.status ?? existing.status}`, {
      status: now?.status ?? existing.status,
    });
  }
  await continueTurn(db, row.turnId);
  return presentApproval(row);
}

/**
 * A pending approval whose turn has ended (left so by an older version, or a path that ended
 * the turn and forgot it) is withdrawn and refused (409): approved now, it would run nothing.
 */
async function refuseIfTurnEnded(db: Db, approval: ApprovalRow): Promise<void> {
  const status = (await getTurn(db, approval.turnId))?.status;
  if (status === undefined || status === "running" || status === "waiting") return;
  const reason = `its turn already ended (${status})`;
  await withdrawApproval(db, { id: approval.id, note: `withdrawn: ${reason}` });
  throw new DomainError("conflict", `approval ${approval.id} can no longer be decided: ${reason}`, {
    status: "expired",
  });
}

/**
 * Resumes the turn behind a decided approval. A turn still running here (it created the
 * approval a moment ago) checks for the decision itself when its run ends.
 */
async function continueTurn(db: Db, turnId: string): Promise<void> {
  // Awaited up to the resume's claim and start (never its run): once a decision is answered,
  // its turn is running again (or ended), never still "waiting". resumeInBackground logs, never throws.
  if (!isTurnActive(turnId)) await resumeInBackground(db, turnId);
}

const SWEEPER = Symbol.for("insika.approvalSweeper");

/**
 * Starts (once per process) the timer that expires approvals: every half TTL, between 0.2 s
 * and 30 s, so an expiry lands within that of its deadline. It does not keep the process alive.
 */
export function startApprovalSweeper(db: Db, ttlS: number): void {
  const holder = globalThis as unknown as Record<symbol, ReturnType<typeof setInterval> | undefined>;
  if (holder[SWEEPER]) return;
  const everyMs = Math.min(30_000, Math.max(200, (ttlS * 1000) / 2));
  const timer = setInterval(() => {
    expireDueApprovals(db).catch((error: unknown) => log.error("approval expiry failed", describeError(error)));
  }, everyMs);
  timer.unref();
  holder[SWEEPER] = timer;
}
