"use server";
// Server actions of the playground: each checks the Studio session, then calls one service.
import { requireStudioSession } from "@/lib/api/studio-auth";
import { createSession } from "@/lib/services/run-turn";
import { asResult, studioDb, type ActionResult } from "../action-result";

export async function createSessionAction(agentId: string) {
  await requireStudioSession();
  return asResult(() => createSession(studioDb(), { agentId, tenant: null }).id);
}

/**
 * Seam for approvals (DESIGN D8; a later issue): the playground's approve /
 * reject buttons call this. Until the approvals service exists it says so.
 */
export async function decideApprovalAction(approvalId: string, decision: "approved" | "rejected"): Promise<ActionResult<null>> {
  await requireStudioSession();
  return { ok: false, code: "unavailable", error: `approvals are not available in this build yet (${decision} for ${approvalId} was not sent)` };
}
