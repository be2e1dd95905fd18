/**
 * The MCP server of one agent's MCP session, on the official SDK's low-level Server:
 * tools/list (the agent's offer), tools/call (runMcpToolCall), prompts (the agent's skills),
 * ping (the SDK's). Every handler reads the agent and session again from the database and
 * acts as the key of the request it answers, so the server object holds no state a fresh one
 * (another process, a revived session) would not rebuild.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/database";
import { getSession } from "@/db/queries/sessions";
import { listSkills } from "@/db/queries/skills";
import type { AgentRow, SessionRow } from "@/db/schema";
import { maySeeSession, type Principal } from "@/lib/access/principal";
import type { ModelToolSpec } from "@/lib/engine/ports";
import { DomainError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { getAgentForTurnOrThrow } from "@/lib/services/agents/agents";
import { APP_VERSION } from "@/lib/version";
import { agentMcpOffer } from "./agent-mcp-offer";
import { mcpCallResult } from "./mcp-call-result";
import { runMcpToolCall } from "./run-mcp-tool-call";

export interface AgentMcpServerParams {
  agentId: string;
  sessionId: string;
}

/** Where a handler finds the principal of its request (the transport's authInfo.extra). */
export const PRINCIPAL_KEY = "insikaPrincipal";

interface Extra {
  authInfo?: { extra?: Record<string, unknown> };
  signal: AbortSignal;
  requestId: string | number;
  _meta?: { progressToken?: string | number };
  sendNotification: (n: { method: "notifications/progress"; params: Record<string, unknown> }) => Promise<void>;
}

/** The server of one MCP session. */
export async function createAgentMcpServer(db: Db, params: AgentMcpServerParams): Promise<Server> {
  const agent = await getAgentForTurnOrThrow(db, params.agentId);
  const server = new Server(
    { name: `insika-agent-${agent.id}`, title: agent.name, version: APP_VERSION },
    {
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
      instructions: `Insika agent '${agent.name}' (id ${agent.id}): its tools under its policy, with argument checks, the egress guard, approvals and a trace of every call (session ${params.sessionId}).`,
    },
  );
  const context = (extra: Extra) => loadContext(db, params, extra);

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
    const { agent, session } = await context(extra as Extra);
    return { tools: (await agentMcpOffer(db, agent, session)).tools.map(asMcpTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, rawExtra) => {
    const extra = rawExtra as Extra;
    const { agent, session, principal } = await context(extra);
    const progressToken = extra._meta?.progressToken;
    const elicits = server.getClientCapabilities()?.elicitation !== undefined;
    try {
      const result = await runMcpToolCall(db, {
        agent,
        session,
        principal,
        requestId: extra.requestId,
        tool: request.params.name,
        arguments: request.params.arguments ?? {},
        signal: extra.signal,
        ...(progressToken !== undefined
          ? {
              onProgress: (message, progress, total) =>
                void extra
                  .sendNotification({
                    method: "notifications/progress",
                    params: { progressToken, progress, total, message },
                  })
                  .catch(() => undefined),
            }
          : {}),
        ...(elicits ? { askApproval: (q, signal) => askThroughElicitation(server, q, signal) } : {}),
      });
      return mcpCallResult(result);
    } catch (error) {
      if (error instanceof DomainError && error.code === "not_found") {
        return mcpCallResult({ ok: false, content: "", error: error.message });
      }
      throw asMcpError(error);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
    const { agent } = await context(extra as Extra);
    return {
      prompts: (await listSkills(db, agent.skills)).map((skill) => ({
        name: skill.name,
        description: skill.description,
      })),
    };
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { agent } = await context(extra as Extra);
    const name = request.params.name;
    const skill = agent.skills.includes(name) ? (await listSkills(db, [name]))[0] : undefined;
    if (!skill)
      throw new McpError(ErrorCode.InvalidParams, `unknown prompt: ${name} (agent '${agent.id}' has no such skill)`);
    return {
      description: skill.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: skill.body } }],
    };
  });
  return server;
}

/** The agent, session and principal of one request; an MCP error when any no longer holds. */
async function loadContext(
  db: Db,
  params: AgentMcpServerParams,
  extra: Extra,
): Promise<{ agent: AgentRow; session: SessionRow; principal: Principal }> {
  const principal = extra.authInfo?.extra?.[PRINCIPAL_KEY] as Principal | undefined;
  if (!principal) throw new McpError(ErrorCode.InternalError, "no principal on the request");
  let agent: AgentRow;
  try {
    agent = await getAgentForTurnOrThrow(db, params.agentId);
  } catch (error) {
    throw asMcpError(error);
  }
  const session = await getSession(db, params.sessionId);
  if (!session || session.agentId !== agent.id || !maySeeSession(principal, session)) {
    throw new McpError(ErrorCode.InvalidRequest, `session '${params.sessionId}' not found`);
  }
  return { agent, session, principal };
}

/** MCP wants an object schema with `type: "object"`; a tool's parameters are one already. */
function asMcpTool(spec: ModelToolSpec) {
  const schema = spec.parameters as Record<string, unknown>;
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: { ...schema, type: "object" as const },
  };
}

async function askThroughElicitation(
  server: Server,
  question: { tool: string; arguments: unknown; approvalId: string },
  signal: AbortSignal,
): Promise<{ decision: "approved" | "rejected"; note: string | null } | null> {
  const answer = await server.elicitInput(
    {
      mode: "form",
      message: `Approve the call of tool '${question.tool}' with arguments ${JSON.stringify(question.arguments)}? (approval ${question.approvalId})`,
      requestedSchema: {
        type: "object",
        properties: {
          approve: { type: "boolean", title: "Approve", description: "Run the call" },
          note: { type: "string", title: "Note", description: "Why (shown to the caller on a rejection)" },
        },
        required: ["approve"],
      },
    },
    { signal, timeout: 24 * 3600 * 1000 },
  );
  const note = typeof answer.content?.note === "string" && answer.content.note !== "" ? answer.content.note : null;
  if (answer.action === "accept") return { decision: answer.content?.approve === true ? "approved" : "rejected", note };
  if (answer.action === "decline") return { decision: "rejected", note: note ?? "declined through the MCP client" };
  return null; // cancelled: the operator may still decide
}

function asMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (error instanceof DomainError) {
    const code = error.code === "validation_failed" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
    return new McpError(code, error.message, { code: error.code, ...(error.details as object | undefined) });
  }
  log.error("MCP request failed", describeError(error));
  return new McpError(ErrorCode.InternalError, "internal error");
}
