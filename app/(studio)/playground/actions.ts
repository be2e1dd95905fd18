"use server";
// Server actions of the playground: each checks the Studio session, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { decideApproval } from "@/lib/services/approvals/approvals";
import { followTurn } from "@/lib/services/turns/follow-turn";
import { asResult, studioDb } from "../action-result";
import { createSessionAs, getVisibleTurnSessionOrThrow } from "@/lib/services/sessions/session-access";

export async function createSessionAction(agentId: string) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["turns:run"], "starting a session");
    // The key's agents apply, and the tenant comes from the key, never from the browser.
    return (await createSessionAs(studioDb(), actor, { agentId })).id;
  });
}

/** Decides a pending approval (DESIGN D8); the waiting turn then goes on in the background. */
export async function decideApprovalAction(approvalId: string, decision: "approved" | "rejected", note?: string) {
  const actor = await requireStudioSession();
  const trimmed = note?.trim().slice(0, 2000);
  return asResult(async () => {
    assertScope(actor, ["approvals:decide"], "deciding an approval");
    return (await decideApproval(studioDb(), actor, approvalId, { decision, ...(trimmed ? { note: trimmed } : {}) }))
      .status;
  });
}

/** A background turn's status and its events after `afterSeq` (the playground polls this after a decision). */
export async function followTurnAction(turnId: string, afterSeq: number) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["traces:read", "turns:run"], "following a turn");
    const db = studioDb();
    // One answer for a turn that does not exist and one of a session this key may not see.
    await getVisibleTurnSessionOrThrow(db, actor, turnId);
    return followTurn(db, turnId, afterSeq);
  });
}
