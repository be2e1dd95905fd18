"use server";
// Server actions of the Agents pages: each checks the Studio session, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { setAgentPolicy, type StudioPolicy } from "@/lib/services/agents/set-agent-policy";
import { putAgent, removeAgent } from "@/lib/services/agents/agents";
import { asResult, studioDb } from "../action-result";

export async function saveAgentAction(id: string, body: Record<string, unknown>) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["agents:write"], "saving an agent");
    return (await putAgent(studioDb(), actor, id, body, "studio")).agent.id;
  });
}

export async function savePolicyAction(id: string, policy: StudioPolicy) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["agents:write"], "changing an agent's tool policy");
    return (await setAgentPolicy(studioDb(), actor, id, policy)).agent.updated_at;
  });
}

export async function deleteAgentAction(id: string) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["agents:write"], "deleting an agent");
    return removeAgent(studioDb(), actor, id);
  });
}
