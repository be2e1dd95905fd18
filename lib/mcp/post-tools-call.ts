/**
 * The MCP call envelope (DESIGN D7): a tool with `request.protocol: "mcp"` is
 * called by POSTing a JSON-RPC `tools/call` to its server. Stateful servers
 * need `initialize` + `notifications/initialized` first and the returned
 * `Mcp-Session-Id` on every later request; the handshake is done once per
 * (URL, credentials) and again when the server has forgotten the session
 * (restart, expiry, DELETE). Everything is sent through lib/http-tools' `send`,
 * which goes through the egress guard with the call's deadline and records
 * each exchange for the trace.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import type { McpCallInfo, McpCallOutcome, McpSend, McpSendResult } from "@/lib/http-tools";
import type { DataToolDefinition } from "@/lib/tools/types";
import { APP_VERSION } from "@/lib/version";
import type { McpSession, McpSessions, OpenResult } from "./mcp-sessions";
import { describeRpcError, readRpcResponse, type RpcResponse } from "./read-rpc-response";
import { endedBeforeAnswer, resumeForAnswer } from "./resume-stream";
import { unwrapResult } from "./unwrap-result";
import { watchForAnswer } from "./watch-for-answer";

/** Sent with every message: servers answer 415 without the type and 406 without both accepts. */
const BASE_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const CLIENT_INFO = { name: "insika", version: APP_VERSION };
/** How much of a non-JSON error body the model is shown. */
const ERROR_PREVIEW_CHARS = 200;

let nextId = 1;
const newId = () => nextId++;

/** The session cache and the key of the call's server and credentials. */
export interface McpCallTarget {
  sessions: McpSessions;
  key: string;
}

/**
 * Calls the server's tool `tool.request.mcp_tool` with `args`: reuses the
 * cached session or performs the handshake; on a session error (HTTP 404, or
 * a 400 that names the session or initialization) forgets the session,
 * re-initializes once and retries once. JSON and SSE responses are both read
 * (see readRpcResponse); an SSE stream that ends before the response is
 * resumed (GET with Last-Event-ID, see resumeForAnswer) within the call's
 * deadline. The result is unwrapped (see unwrapResult); a
 * JSON-RPC error, an `isError` result, a transport failure or an egress
 * refusal is `{ok:false}` with a model-readable message. Never throws.
 */
export async function postToolsCall(
  tool: DataToolDefinition,
  args: Record<string, unknown>,
  send: McpSend,
  target: McpCallTarget,
  info: Pick<McpCallInfo, "remainingMs" | "signal"> = { remainingMs: () => Infinity },
): Promise<McpCallOutcome> {
  const name = tool.request.mcp_tool;
  if (typeof name !== "string" || name === "")
    return { ok: false, error: "the tool has no request.mcp_tool (its name on the MCP server)" };
  const params = { name, arguments: args ?? {} };

  for (let attempt = 0; attempt < 2; attempt += 1) {
    const opened = await target.sessions.getOrOpen(target.key, () => openSession(send));
    if (!opened.ok) return opened;
    const session = opened.session;
    const id = newId();
    const headers = sessionHeaders(session);
    const sent = await send({ body: rpcBody("tools/call", params, id), headers, stopReading: watchForAnswer(id) });
    if (!sent.ok) return { ok: false, error: sent.error };
    if (isSessionError(sent) && attempt === 0) {
      target.sessions.forget(target.key, session);
      continue;
    }
    let answer = readAnswer(sent, id, "tools/call");
    if (!answer.ok && endedBeforeAnswer(sent)) answer = await resumeForAnswer(sent.body, id, send, headers, info);
    if (!answer.ok) return answer;
    if (answer.message.error !== undefined) return { ok: false, error: describeRpcError(answer.message.error) };
    return unwrapResult(answer.message.result);
  }
  return { ok: false, error: "the MCP server rejected the session again after a fresh handshake" };
}

/** `initialize`, then `notifications/initialized`; a missing session id means a stateless server. */
async function openSession(send: McpSend): Promise<OpenResult> {
  const id = newId();
  const init = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
  const sent = await send({
    body: rpcBody("initialize", init, id),
    headers: { ...BASE_HEADERS },
    stopReading: watchForAnswer(id),
  });
  if (!sent.ok) return { ok: false, error: sent.error };
  const answer = readAnswer(sent, id, "initialize");
  if (!answer.ok) return answer;
  if (answer.message.error !== undefined)
    return { ok: false, error: `MCP initialize failed: ${describeRpcError(answer.message.error)}` };
  const result = answer.message.result as { protocolVersion?: unknown } | null;
  const session: McpSession = {
    sessionId: headerValue(sent.headers, "mcp-session-id"),
    protocolVersion: typeof result?.protocolVersion === "string" ? result.protocolVersion : LATEST_PROTOCOL_VERSION,
  };
  const note = await send({
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    headers: sessionHeaders(session),
  });
  if (!note.ok) return { ok: false, error: note.error };
  if (note.status >= 400)
    return { ok: false, error: `MCP server refused notifications/initialized: ${httpProblem(note)}` };
  return { ok: true, session };
}

function rpcBody(method: string, params: unknown, id: number): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

function sessionHeaders(session: McpSession): Record<string, string> {
  const headers: Record<string, string> = { ...BASE_HEADERS, "MCP-Protocol-Version": session.protocolVersion };
  if (session.sessionId !== null) headers["Mcp-Session-Id"] = session.sessionId;
  return headers;
}

type Received = Extract<McpSendResult, { ok: true }>;

/** 404 is the spec's "session expired"; the SDK answers 400 "Server not initialized" / "No valid session ID". */
function isSessionError(r: Received): boolean {
  if (r.status === 404) return true;
  if (r.status !== 400) return false;
  return /session|not initialized/i.test(r.body.toString("utf8"));
}

function readAnswer(
  r: Received,
  id: number,
  method: string,
): { ok: true; message: RpcResponse } | { ok: false; error: string } {
  if (r.truncated) return { ok: false, error: `the MCP server's answer to ${method} is larger than the response cap` };
  if (r.status < 200 || r.status >= 300) return { ok: false, error: `${method}: ${httpProblem(r)}` };
  return readRpcResponse(r.body.toString("utf8"), headerValue(r.headers, "content-type") ?? undefined, id);
}

// An error status often carries a JSON-RPC error, which says more than the status.
function httpProblem(r: Received): string {
  const text = r.body.toString("utf8").trim();
  let detail = text.slice(0, ERROR_PREVIEW_CHARS);
  try {
    const parsed = JSON.parse(text) as { error?: RpcResponse["error"] };
    if (parsed && typeof parsed === "object" && parsed.error) detail = describeRpcError(parsed.error);
  } catch {
    // not JSON: the preview stands
  }
  return `the MCP server answered HTTP ${r.status}${detail ? ` (${detail})` : ""}`;
}

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | null {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name && v.trim() !== "") return v.trim();
  return null;
}
