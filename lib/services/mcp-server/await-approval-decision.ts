/**
 * An MCP call behind an approval waits for the decision in the call itself (an MCP client
 * has no "resume later"): it polls the approval row, so a decision made in any process (the
 * Studio, POST /v1/approvals/:id) is seen; it reports progress meanwhile; it ends when the
 * approval expires (an MCP call's approval expires after INSIKA_MCP_APPROVAL_WAIT at most)
 * or the client cancels (the approval is then withdrawn: an MCP call is never resumed, so a
 * later "approved" would run nothing). When the client declared elicitation, the question is
 * also put to its user, whose answer is recorded as the decision.
 */
import type { Db } from "@/db/client";
import { getApproval, withdrawApproval } from "@/db/queries/approvals";
import type { Principal } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { answerOwnApproval, expireDueApprovals } from "@/lib/services/approvals/approvals";

/** How often the approval row is read while a call waits. */
export const APPROVAL_POLL_MS = 200;
/** How often a waiting call reports progress. */
export const APPROVAL_PROGRESS_MS = 1_000;
/** The note of an approval whose MCP call was cancelled while it waited. */
export const CALL_CANCELLED_NOTE = "withdrawn: the MCP client cancelled the call, which did not run";

export interface ApprovalAnswer {
  decision: "approved" | "rejected";
  note: string | null;
}

export interface AwaitApprovalParams {
  approvalId: string;
  /** Who answers through elicitation (recorded in the audit log as the decider). */
  principal: Principal;
  signal: AbortSignal;
  /** Called about once a second while waiting: seconds waited, seconds the wait may last. */
  onProgress?: (waitedS: number, totalS: number) => void;
  /**
   * Asks the client's user (elicitation); absent when the client did not declare it. Its
   * signal aborts when the wait ends otherwise (decided elsewhere, expired, cancelled), so the
   * question does not outlive the call.
   */
  ask?: (signal: AbortSignal) => Promise<ApprovalAnswer | null>;
}

export type ApprovalEnd =
  | { decision: "approved" | "rejected"; expired: boolean; note: string | null }
  | { decision: "cancelled"; reason: string };

/** Waits until the approval is decided or expired, or the call is cancelled. Never throws. */
export async function awaitApprovalDecision(db: Db, params: AwaitApprovalParams): Promise<ApprovalEnd> {
  const first = await getApproval(db, params.approvalId);
  if (!first) return { decision: "cancelled", reason: `approval ${params.approvalId} is gone` };
  const started = Date.now();
  const totalS = Math.max(0, Math.round((first.expiresAt - started) / 1000));
  const asking = new AbortController();
  if (params.ask) void answerThroughClient(db, params, AbortSignal.any([asking.signal, params.signal]));
  try {
    return await poll(db, params, started, totalS);
  } finally {
    asking.abort(new Error("the approval wait ended"));
  }
}

async function poll(db: Db, params: AwaitApprovalParams, started: number, totalS: number): Promise<ApprovalEnd> {
  let lastProgress = started;
  for (;;) {
    const row = await getApproval(db, params.approvalId);
    if (!row) return { decision: "cancelled", reason: `approval ${params.approvalId} is gone` };
    if (row.status !== "pending") {
      return {
        decision: row.status === "approved" ? "approved" : "rejected",
        expired: row.status === "expired",
        note: row.note,
      };
    }
    const now = Date.now();
    if (row.expiresAt <= now) {
      await expireDueApprovals(db, now);
      continue;
    }
    if (params.signal.aborted) return withdraw(db, params.approvalId);
    if (params.onProgress && now - lastProgress >= APPROVAL_PROGRESS_MS) {
      lastProgress = now;
      params.onProgress(Math.round((now - started) / 1000), totalS);
    }
    await sleep(Math.min(APPROVAL_POLL_MS, Math.max(1, row.expiresAt - now)), params.signal);
  }
}

/**
 * The client cancelled: its call will never run (MCP calls are not resumed), so its approval is
 * withdrawn rather than left pending for an operator to approve into nothing. A decision that
 * landed first stands (withdrawApproval changes only a pending approval).
 */
async function withdraw(db: Db, approvalId: string): Promise<ApprovalEnd> {
  try {
    await withdrawApproval(db, { id: approvalId, note: CALL_CANCELLED_NOTE });
  } catch (error) {
    log.error("withdrawing a cancelled call's approval failed", { approval_id: approvalId, ...describeError(error) });
  }
  return { decision: "cancelled", reason: "the client cancelled the call" };
}

/** The client's user answers; their answer is the decision unless someone decided first. */
async function answerThroughClient(db: Db, params: AwaitApprovalParams, signal: AbortSignal): Promise<void> {
  try {
    const answer = await params.ask!(signal);
    if (signal.aborted) return; // the wait is over: a late answer decides nothing
    if (!answer) return; // no answer: the wait goes on (the operator may still decide)
    await answerOwnApproval(db, params.principal, params.approvalId, {
      decision: answer.decision,
      ...(answer.note ? { note: answer.note } : {}),
    });
  } catch (error) {
    if (error instanceof DomainError && error.code === "conflict") return; // decided elsewhere first
    log.debug("approval through elicitation failed", { approval_id: params.approvalId, ...describeError(error) });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
