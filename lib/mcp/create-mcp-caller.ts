/**
 * The McpCaller that lib/services hands to lib/http-tools' `deps.mcp` seam:
 * every MCP tool call of a process goes through postToolsCall with one shared
 * session cache.
 */
import type { McpCallInfo, McpCaller, McpSend } from "@/lib/http-tools";
import type { DataToolDefinition, TurnContext } from "@/lib/tools/types";
import { McpSessions } from "./mcp-sessions";
import { postToolsCall } from "./post-tools-call";

/**
 * An McpCaller for lib/http-tools' `deps.mcp` seam, sharing `sessions` across
 * calls, keyed by the seam's `info.sessionKey` (built URL and credentials,
 * hashed): calls with different credentials never share a session.
 */
export function createMcpCaller(sessions: McpSessions = new McpSessions()): McpCaller {
  return (
    tool: DataToolDefinition,
    args: Record<string, unknown>,
    _ctx: TurnContext,
    send: McpSend,
    info: McpCallInfo,
  ) => postToolsCall(tool, args, send, { sessions, key: info.sessionKey }, info);
}
