"use server";
// Server actions of the Agents pages: each checks the Studio session and its arguments, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { pathSegment } from "@/lib/api/route";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { setAgentPolicy, studioPolicyInput, type StudioPolicy } from "@/lib/services/agents/set-agent-policy";
import { putAgent, removeAgent } from "@/lib/services/agents/agents";
import { asResult, parseArgs, studioDb } from "../action-result";

/** `body` is checked by putAgent itself (agentInput), as for PUT /v1/agents/:id. */
export async function saveAgentAction(id: string, body: Record<string, unknown>) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["agents:write"], "saving an agent");
    const args = parseArgs({ id: pathSegment }, { id });
    return (await putAgent(studioDb(), actor, args.id, body, "studio")).agent.id;
  });
}

export async function savePolicyAction(id: string, policy: StudioPolicy) {
  const actor = await requireStudioSession();
  return asResult(async () => {
    assertScope(actor, ["agents:write"], "changing an agent's tool policy");
    const args = parseArgs({ id: pathSegment, policy: studioPolicyInput }, { id, policy });
    return (await setAgentPolicy(studioDb(), actor, args.id, args.policy)).agent.updated_at;
  });
}

export async function deleteAgentAction(id: string) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["agents:write"], "deleting an agent");
    return removeAgent(studioDb(), actor, parseArgs({ id: pathSegment }, { id }).id);
  });
}
