/**
 * What an agent offers over MCP: exactly what a turn of that agent is offered (the policy's
 * offered tools plus the system tools its configuration turns on, deny winning), the tools a
 * call may name (the offered ones, the system ones and the deferred ones tool_search reveals),
 * the executor a turn would run them with, and the tools behind an approval.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/client";
import { getAgentRecord } from "@/db/queries/agents";
import { getSession } from "@/db/queries/sessions";
import { listSkills } from "@/db/queries/skills";
import type { AgentRow, SessionRow } from "@/db/schema";
import type { ModelToolSpec, ToolExecutor } from "@/lib/engine/ports";
import { processSecrets } from "@/lib/secrets/secret-source";
import type { TurnContext } from "@/lib/tools/types";
import { agentToolExposure } from "@/lib/services/agents/agents";
import { getCatalog } from "@/lib/services/tools/catalog";
import { createCatalogExecutor } from "@/lib/services/tools/catalog-executor";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { offeredToolSpecs } from "@/lib/services/tools/offered-tool-specs";
import { childRunner } from "@/lib/services/turns/launch-turn";
import { callDescriber, type CallDescriber } from "@/lib/services/turns/sent-call-record";
import { turnContext } from "@/lib/services/turns/setup-turn";
import { createSystemTools } from "@/lib/services/turns/system-tools";
import { createTurnExecutor } from "@/lib/services/turns/turn-executor";
import { newSubagentBudget } from "@/lib/services/turns/turn-subagent-budget";

export interface AgentMcpOffer {
  /** tools/list: what a turn of the agent is offered, in the turn's order. */
  tools: ModelToolSpec[];
  /** Names a tools/call may use: offered, system and deferred (found through tool_search). */
  callable: ReadonlySet<string>;
  /** Calls that wait for an operator's decision (the agent's approvals, where reachable). */
  gated: ReadonlySet<string>;
  executor: ToolExecutor;
  ctx: TurnContext;
  describeCall: CallDescriber;
}

/**
 * The agent's offer in this MCP session (its ctx: chat_id = the session, tenant from the key).
 * `callTurnId`: the turn of the MCP call it serves, recorded as the parent of the child turns
 * a spawn_subagent(s) call starts; null when the offer is only listed.
 */
export async function agentMcpOffer(
  db: Db,
  agent: AgentRow,
  session: SessionRow,
  callTurnId: string | null = null,
): Promise<AgentMcpOffer> {
  const catalog = await getCatalog(db);
  const exposure = await agentToolExposure(db, agent);
  const ctx = turnContext(session, agent);
  const budget = newSubagentBudget(agent);
  const system = createSystemTools(db, {
    agent,
    ctx,
    depth: 0,
    catalog,
    deferred: exposure.deferred,
    runChild: childRunner(db, { turnId: callTurnId, session, depth: 0, budget }),
    subagentBudget: budget,
  });
  const reachable = new Set([...exposure.offered, ...exposure.deferred]);
  return {
    tools: [...offeredToolSpecs(catalog, exposure.offered), ...system.specs],
    callable: new Set([...reachable, ...system.specs.map((s) => s.name)]),
    gated: new Set(agent.approvals.filter((name) => reachable.has(name))),
    executor: createTurnExecutor(
      createCatalogExecutor({ catalog, posture: getPosture(), secrets: processSecrets }),
      catalog,
      system,
    ),
    ctx,
    describeCall: callDescriber({ catalog, ctx, secrets: processSecrets, isSystemTool: (name) => system.has(name) }),
  };
}

/**
 * A fingerprint of what tools/list answers for this agent and session now (undefined when
 * the agent or session is gone): when it moves — a catalog write, a policy change — the
 * session is told `notifications/tools/list_changed`.
 */
export async function agentMcpToolsFingerprint(
  db: Db,
  agentId: string,
  sessionId: string,
): Promise<string | undefined> {
  const agent = await getAgentRecord(db, agentId);
  const session = await getSession(db, sessionId);
  if (!agent || agent.archivedAt !== null || !session) return undefined;
  const { tools } = await agentMcpOffer(db, agent, session);
  return crypto.createHash("sha256").update(JSON.stringify(tools)).digest("base64url");
}

/** A fingerprint of what prompts/list answers (the agent's skills), undefined when the agent is gone. */
export async function agentMcpPromptsFingerprint(db: Db, agentId: string): Promise<string | undefined> {
  const agent = await getAgentRecord(db, agentId);
  if (!agent || agent.archivedAt !== null) return undefined;
  const prompts = (await listSkills(db, agent.skills)).map((skill) => [skill.name, skill.description, skill.body]);
  return crypto.createHash("sha256").update(JSON.stringify(prompts)).digest("base64url");
}
