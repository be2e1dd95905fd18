/**
 * Studio writes to an agent's tool policy: the whole policy from the agent's
 * tool matrix, or one tool's exposure from the tool's own page. Both go
 * through putAgent, so the API's validation applies unchanged.
 */
import { z } from "zod";
import type { Db } from "@/db/database";
import type { Principal } from "@/lib/access/principal";
import { agentInput } from "@/lib/agents/agent-input";
import type { AgentPolicy } from "@/lib/agents/policy";
import { agentBody, getAgentOrThrow, putAgent } from "./agents";

export const toolExposureMode = z.enum(["allow", "deny", "defer", "unset"]);
export type ToolExposureMode = z.infer<typeof toolExposureMode>;

export interface StudioPolicy extends AgentPolicy {
  approvals: string[];
}

/** A whole policy as the tool matrix sends it: these five fields of the agent, each with PUT /v1/agents/:id's rules. */
export const studioPolicyInput = agentInput
  .pick({ tools_allow: true, tools_deny: true, tools_allow_groups: true, tools_deferred: true, approvals: true })
  .required();

/** Replaces the agent's tool policy (and approvals), keeping everything else. */
export async function setAgentPolicy(db: Db, actor: Principal, agentId: string, policy: StudioPolicy) {
  const row = await getAgentOrThrow(db, agentId);
  return putAgent(db, actor, agentId, { ...agentBody(row), ...policy }, "studio");
}

const without = (list: string[], name: string) => list.filter((n) => n !== name);
const withName = (list: string[], name: string) => (list.includes(name) ? list : [...list, name]);

/**
 * Sets how one agent exposes one tool. `allow` and `defer` add the name to
 * tools_allow only when the agent has an allowlist (with none, every tool is
 * already allowed and adding one would shut out all the others).
 */
export async function setToolExposure(db: Db, actor: Principal, agentId: string, tool: string, mode: ToolExposureMode) {
  const row = await getAgentOrThrow(db, agentId);
  const hasAllowlist = row.toolsAllow !== null || row.toolsAllowGroups !== null;
  const allow = row.toolsAllow ?? (hasAllowlist ? [] : null);
  const policy: StudioPolicy = {
    tools_allow:
      allow === null ? null : mode === "allow" || mode === "defer" ? withName(allow, tool) : without(allow, tool),
    tools_deny: mode === "deny" ? withName(row.toolsDeny, tool) : without(row.toolsDeny, tool),
    tools_allow_groups: row.toolsAllowGroups,
    tools_deferred: mode === "defer" ? withName(row.toolsDeferred, tool) : without(row.toolsDeferred, tool),
    approvals: row.approvals,
  };
  return putAgent(db, actor, agentId, { ...agentBody(row), ...policy }, "studio");
}
