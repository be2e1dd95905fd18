/**
 * An agent's MCP session is an Insika session whose id says so (`mcp_…`): the MCP
 * `Mcp-Session-Id` is that session's id, so `{{ctx.chat_id}}` is the MCP session and
 * every call of the MCP session lands in one trace (docs/decisions.md, MCP server).
 */
import { newId } from "@/lib/services/new-id";

export const MCP_SESSION_PREFIX = "mcp_";

/** A new MCP session id (also the id of its Insika session). */
export const newMcpSessionId = () => newId("mcp");

/** Whether a session id is an MCP session's (its turns are single tool calls, never model turns). */
export const isMcpSessionId = (id: string) => id.startsWith(MCP_SESSION_PREFIX);

/** The user message of an MCP call's turn (run-mcp-tool-call.ts). */
export const MCP_CALL_MESSAGE_PREFIX = "MCP tools/call ";

/**
 * Whether a turn is one MCP tools/call (a turn of an MCP session with the call's message):
 * a model turn someone started in an MCP session (the playground) is not, and resumes as usual.
 */
export const isMcpCallTurn = (turn: { sessionId: string; userMessage: string }) =>
  isMcpSessionId(turn.sessionId) && turn.userMessage.startsWith(MCP_CALL_MESSAGE_PREFIX);
