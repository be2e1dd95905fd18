"use server";
// Server actions of the playground: each checks the Studio session and its arguments, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { pathSegment } from "@/lib/api/route";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { decideApproval, decisionBody } from "@/lib/services/approvals/approvals";
import { afterSeqInput, followTurn } from "@/lib/services/turns/follow-turn";
import { asResult, parseArgs, studioDb } from "../action-result";
import { createSessionAs, getVisibleTurnSessionOrThrow } from "@/lib/services/sessions/session-access";

export async function createSessionAction(agentId: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["turns:run"], "starting a session");
    // An agent id, as the API's paths take one: no NUL (PostgreSQL could not even look it up).
    const args = parseArgs({ agentId: pathSegment }, { agentId });
    // The key's agents apply, and the tenant comes from the key, never from the browser.
    return (await createSessionAs(studioDb(), actor, { agentId: args.agentId })).id;
  });
}

/** Decides a pending approval (DESIGN D8); the waiting turn then goes on in the background. */
export async function decideApprovalAction(approvalId: string, decision: "approved" | "rejected", note?: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["approvals:decide"], "deciding an approval");
    const args = parseArgs({ approvalId: pathSegment, ...decisionBody.shape }, { approvalId, decision, note });
    const trimmed = args.note?.trim();
    return (
      await decideApproval(studioDb(), actor, args.approvalId, {
        decision: args.decision,
        ...(trimmed ? { note: trimmed } : {}),
      })
    ).status;
  });
}

/** A background turn's status and its events after `afterSeq` (the playground polls this after a decision). */
export async function followTurnAction(turnId: string, afterSeq: number) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["traces:read", "turns:run"], "following a turn");
    const args = parseArgs({ turnId: pathSegment, afterSeq: afterSeqInput }, { turnId, afterSeq });
    const db = studioDb();
    // One answer for a turn that does not exist and one of a session this key may not see.
    await getVisibleTurnSessionOrThrow(db, actor, args.turnId);
    return followTurn(db, args.turnId, args.afterSeq);
  });
}
