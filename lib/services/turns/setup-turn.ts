/**
 * Everything one run of a turn needs, built from the database: the model, the system message,
 * the history, the offered tools (policy + system tools), the executor, the approval gate and
 * the limits. Shared by a fresh turn and a resumed one, so both see the same configuration.
 */
import type { Db } from "@/db/database";
import { listMemories } from "@/db/queries/memories";
import { listFinishedTurnMessages } from "@/db/queries/transcripts";
import { listSkills } from "@/db/queries/skills";
import type { AgentLimits, AgentRow, SessionRow } from "@/db/schema";
import type { EngineEvent, Model, ModelMessage, ModelToolSpec, ToolExecutor, ToolGate } from "@/lib/engine/ports";
import { getEnv } from "@/lib/env";
import { createModel } from "@/lib/providers/create-model";
import { processSecrets, providerSecrets } from "@/lib/secrets/secret-source";
import type { TurnContext } from "@/lib/tools/types";
import type { SubagentBudget } from "@/lib/code-tools/system/subagent-budget";
import { createApprovalGate } from "@/lib/services/approvals/approval-gate";
import { agentToolExposure } from "@/lib/services/agents/agents";
import { getCatalog } from "@/lib/services/tools/catalog";
import { getPosture, getProviderFetches } from "@/lib/services/tools/egress-posture";
import { crashHook, loadScriptedModel } from "./scripted-script";
import { callDescriber, type CallDescriber } from "./sent-call-record";
import { createSystemTools, type ChildRunner } from "./system-tools";
import { createCatalogExecutor } from "@/lib/services/tools/catalog-executor";
import { offeredToolSpecs } from "@/lib/services/tools/offered-tool-specs";
import { createTurnExecutor } from "./turn-executor";
import { turnInstructions } from "./turn-instructions";
import { errorMessage } from "@/lib/errors";

/** Memories shown back to the model per turn (newest). */
export const MEMORIES_SHOWN = 50;

export interface TurnSetupParams {
  turnId: string;
  session: SessionRow;
  agent: AgentRow;
  /** The turn's user message (the scripted provider picks its script by it). */
  message: string;
  depth: number;
  /** The first model step this run will ask for (a resume skips the ones already played). */
  startStep: number;
  /** The turn row was just created (not a resume). */
  fresh: boolean;
  /** The session's first turn: no earlier turn, so no history (not read). */
  firstOfSession?: boolean;
  runChild: ChildRunner;
  /** This turn's subagent budget (chained to its parent's for a child turn). */
  subagentBudget: SubagentBudget;
}

export interface TurnSetup {
  model: Model;
  instructions?: string;
  history: ModelMessage[];
  tools: ModelToolSpec[];
  executor: ToolExecutor;
  ctx: TurnContext;
  gate?: ToolGate;
  limits: AgentLimits;
  /** What each call is about to send (masked), for the call journal. */
  describeCall: CallDescriber;
  /**
   * Whether a name is a tool of the catalog or one of this turn's system tools: the bounded,
   * operator-defined names (a model may call any name; metrics must not keep a series per name).
   */
  isKnownTool: (name: string) => boolean;
  /** Run after each persisted event: a fresh scripted turn's crash point (scripted-script.ts). */
  afterEvent?: (event: EngineEvent) => void;
}

/** The turn context: set server-side from the session and agent, never from the model. */
export function turnContext(session: SessionRow, agent: AgentRow): TurnContext {
  const ctx: TurnContext = { chat_id: session.id, agent_id: agent.id, tenant: session.tenant ?? session.id };
  if (agent.metadata.store_id) ctx.store_id = agent.metadata.store_id;
  return ctx;
}

/** Builds one run's configuration. Never throws for a configuration problem (the turn fails visibly instead). */
export async function setupTurn(db: Db, params: TurnSetupParams): Promise<TurnSetup> {
  const { agent, session } = params;
  const env = getEnv();
  const catalog = await getCatalog(db);
  const exposure = await agentToolExposure(db, agent, catalog);
  const ctx = turnContext(session, agent);
  const system = createSystemTools(db, {
    agent,
    ctx,
    depth: params.depth,
    catalog,
    deferred: exposure.deferred,
    runChild: params.runChild,
    subagentBudget: params.subagentBudget,
  });
  const tools = [...offeredToolSpecs(catalog, exposure.offered), ...system.specs];

  const reachable = new Set([...exposure.offered, ...exposure.deferred]);
  const gated = new Set(agent.approvals.filter((name) => reachable.has(name)));
  const { model, afterEvent } = buildModel(agent, env.INSIKA_SCRIPTED_DIR, params);
  const setup: TurnSetup = {
    model,
    ...(afterEvent ? { afterEvent } : {}),
    history: params.firstOfSession ? [] : await history(db, session.id),
    tools,
    executor: createTurnExecutor(
      createCatalogExecutor({ catalog, posture: getPosture(), secrets: processSecrets }),
      catalog,
      system,
    ),
    ctx,
    limits: agent.limits,
    describeCall: callDescriber({ catalog, ctx, secrets: processSecrets, isSystemTool: (name) => system.has(name) }),
    isKnownTool: (name) => system.has(name) || catalog.entries.has(name),
  };
  const instructions = turnInstructions({
    instructions: agent.instructions,
    skills: system.has("load_skill") ? await listSkills(db, agent.skills) : [],
    memories: system.has("remember")
      ? (await listMemories(db, { agentId: agent.id, tenant: ctx.tenant ?? "", limit: MEMORIES_SHOWN })).map(
          (m) => m.text,
        )
      : [],
    deferred: system.has("tool_search")
      ? exposure.deferred.map((name) => ({ name, description: catalog.entries.get(name)?.description ?? "" }))
      : [],
  });
  if (instructions) setup.instructions = instructions;
  if (gated.size > 0) {
    setup.gate = createApprovalGate(db, {
      turnId: params.turnId,
      sessionId: session.id,
      tools: gated,
      ttlS: env.INSIKA_APPROVAL_TTL,
    });
  }
  return setup;
}

/** The earlier turns' messages, as the model is sent them. Unfinished turns are left out. */
async function history(db: Db, sessionId: string): Promise<ModelMessage[]> {
  return (await listFinishedTurnMessages(db, sessionId)).map((m): ModelMessage => {
    switch (m.role) {
      case "assistant":
        return m.toolCalls?.length
          ? { role: "assistant", content: m.content, toolCalls: m.toolCalls }
          : { role: "assistant", content: m.content };
      case "tool":
        return { role: "tool", callId: m.callId ?? "", tool: m.tool ?? "", content: m.content };
      default:
        return { role: m.role, content: m.content };
    }
  });
}

/**
 * The agent's model (and, for a fresh scripted turn, its crash hook). A configuration problem
 * (unknown provider, missing secret name, a bad script...) becomes a model that fails on
 * first use, so the turn fails visibly in its trace.
 */
function buildModel(
  agent: AgentRow,
  scriptedDir: string | undefined,
  params: Pick<TurnSetupParams, "message" | "startStep" | "fresh">,
): Pick<TurnSetup, "model" | "afterEvent"> {
  try {
    const { startStep, fresh } = params;
    const scripted =
      agent.model.provider === "scripted"
        ? loadScriptedModel(scriptedDir, agent.model.model, params.message, { startStep, fresh })
        : undefined;
    // Provider keys come from their own namespace and travel only through the provider fetch.
    const model = createModel(agent.model, {
      readSecret: (name) => providerSecrets.read(name),
      ...getProviderFetches(),
      ...(scripted ? { scripted: scripted.model } : {}),
    });
    return scripted?.crashAfter ? { model, afterEvent: crashHook(scripted.crashAfter) } : { model };
  } catch (error) {
    const reason = errorMessage(error);
    return {
      model: {
        id: `${agent.model.provider}:${agent.model.model}`,
        stream: () => ({
          [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(modelConfigurationError(reason)) }),
        }),
      },
    };
  }
}

/** The failing model's error: the turn fails with code model_configuration (lib/engine/turn-failure.ts). */
function modelConfigurationError(reason: string): Error {
  return Object.assign(new Error(`model configuration: ${reason}`), { failureCode: "model_configuration" });
}
