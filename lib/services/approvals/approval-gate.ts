/**
 * The approval gate (DESIGN D8): asked by the engine before every enveloped call of a turn
 * whose agent lists approvals. Each call (not each tool name) gets its own persisted
 * approval, keyed by the call identity so a resumed turn finds the decision made for it.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/database";
import { expireApprovals, getApprovalForCall, insertApproval } from "@/db/queries/approvals";
import type { GateDecision, GateRequest, ToolGate } from "@/lib/engine/ports";

/** What the model reads when an operator (or the clock) said no. */
export const REJECTED_BY_OPERATOR = "rejected by operator";

export interface ApprovalGateParams {
  turnId: string;
  sessionId: string;
  /** The tools whose calls need a decision. */
  tools: ReadonlySet<string>;
  /** Seconds a pending approval waits before it expires (a rejection). */
  ttlS: number;
  now?: () => number;
}

export const newApprovalId = () => `apr_${crypto.randomBytes(12).toString("base64url")}`;

/** A gate for one turn. Calls of other tools run without asking. */
export function createApprovalGate(db: Db, params: ApprovalGateParams): ToolGate {
  const now = params.now ?? Date.now;
  return {
    tools: [...params.tools].sort(),
    async check(request: GateRequest): Promise<GateDecision> {
      if (!params.tools.has(request.tool)) return { action: "run" };
      let approval = await getApprovalForCall(db, { turnId: params.turnId, identity: request.identity });
      if (!approval) {
        const at = now();
        approval = await insertApproval(db, {
          id: newApprovalId(),
          turnId: params.turnId,
          sessionId: params.sessionId,
          callId: request.callId,
          identity: request.identity,
          tool: request.tool,
          arguments: request.arguments ?? null,
          createdAt: at,
          expiresAt: at + Math.round(params.ttlS * 1000),
        });
        return { action: "wait", approval: { id: approval.id, state: "requested" } };
      }
      if (approval.status === "pending" && approval.expiresAt <= now()) {
        await expireApprovals(db, now());
        approval = (await getApprovalForCall(db, { turnId: params.turnId, identity: request.identity })) ?? approval;
      }
      const id = approval.id;
      switch (approval.status) {
        case "pending":
          return { action: "wait", approval: { id, state: "pending" } };
        case "approved":
          return { action: "run", approval: { id, state: "approved" } };
        case "rejected":
          return { action: "refuse", error: REJECTED_BY_OPERATOR, approval: { id, state: "rejected" } };
        case "expired":
          return { action: "refuse", error: REJECTED_BY_OPERATOR, approval: { id, state: "expired" } };
      }
    },
  };
}
