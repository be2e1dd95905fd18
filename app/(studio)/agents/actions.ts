"use server";
// Server actions of the Agents pages: each checks the Studio session, then calls one service.
import { requireStudioSession } from "@/lib/api/studio-auth";
import { setAgentPolicy, type StudioPolicy } from "@/lib/services/agents/set-agent-policy";
import { putAgent, removeAgent } from "@/lib/services/agents/agents";
import { asResult, studioDb } from "../action-result";

export async function saveAgentAction(id: string, body: Record<string, unknown>) {
  await requireStudioSession();
  return asResult(() => putAgent(studioDb(), id, body, "studio").agent.id);
}

export async function savePolicyAction(id: string, policy: StudioPolicy) {
  await requireStudioSession();
  return asResult(() => setAgentPolicy(studioDb(), id, policy).agent.updated_at);
}

export async function deleteAgentAction(id: string) {
  await requireStudioSession();
  return asResult(() => removeAgent(studioDb(), id));
}
