/**
 * /v1/agents/:id/mcp — an agent as an MCP server (Streamable HTTP, the official SDK's
 * web-standard transport). The route has checked the key (401) and its turns:run scope
 * (403); here: Host/Origin (DNS-rebinding protection, 403), the agent (404, or 409 when
 * deleted) and the key's agent list (403), then the session: `initialize` opens one (an
 * Insika session of the agent); a request naming a session is served by its live transport
 * here, or by a revived one when the session is valid in the database but not held here;
 * an unknown session is 404, as the MCP spec has it.
 */
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/access/principal";
import type { Env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { getAgentForTurnOrThrow } from "@/lib/services/agents/agents";
import { PRINCIPAL_KEY } from "@/lib/services/mcp-server/create-agent-mcp-server";
import {
  createMcpSession,
  dropRefusedMcpSession,
  endMcpSession,
  findMcpSession,
} from "@/lib/services/mcp-server/mcp-sessions";
import { assertMayUseAgent } from "@/lib/services/sessions/session-access";
import { BODY_LIMITS } from "../body-limits";
import { readJsonBody } from "../read-json-body";
import {
  closeSession,
  getLiveSession,
  isHeld,
  noteKey,
  isShuttingDown,
  type LiveSession,
  negotiatedVersion,
  openSession,
  reviveSession,
  sessionlessTransport,
} from "./live-mcp-sessions";
import { checkMcpRequestHost, parseAllowedHosts } from "./mcp-host-check";

export interface AgentMcpContext {
  db: Db;
  env: Env;
  principal: Principal;
  agentId: string;
}

/** Answers one request to an agent's MCP endpoint. */
export async function handleAgentMcpRequest(req: Request, ctx: AgentMcpContext): Promise<Response> {
  const { db, principal, agentId } = ctx;
  if (isShuttingDown()) return unavailable();
  const host = checkMcpRequestHost(req.headers, parseAllowedHosts(ctx.env.INSIKA_MCP_ALLOWED_HOSTS));
  if (!host.ok) return rpcError(403, -32000, host.reason);
  await getAgentForTurnOrThrow(db, agentId);
  assertMayUseAgent(principal, agentId);
  const authInfo: AuthInfo = {
    token: "",
    clientId: principal.keyId,
    scopes: [...principal.scopes],
    extra: { [PRINCIPAL_KEY]: principal },
  };

  const sessionId = req.headers.get("mcp-session-id");
  if (sessionId !== null) {
    const session = await findMcpSession(db, principal, agentId, sessionId);
    if (!session) return rpcError(404, -32001, "Session not found");
    // A POST body is read here (size cap, nesting depth) as for every /v1 route, then handed on parsed.
    const parsedBody = req.method === "POST" ? await readJsonBody(req, BODY_LIMITS.default) : undefined;
    const live =
      getLiveSession(sessionId) ??
      (await reviveSession(db, agentId, sessionId, req.headers.get("mcp-protocol-version")));
    if (!isHeld(live)) return unavailable();
    live.lastUsed = Date.now();
    noteKey(live, principal);
    const response = await live.transport.handleRequest(withSessionVersion(req, live.protocolVersion), {
      authInfo,
      ...(parsedBody !== undefined ? { parsedBody } : {}),
    });
    if (req.method === "DELETE") {
      // The transport has let go of the session (onsessionclosed): it is not held any more.
      if (response.ok) {
        await endMcpSession(db, sessionId);
        closeSession(sessionId);
      }
      return response;
    }
    return isHeld(live) ? response : discard(response);
  }

  if (req.method !== "POST") return sessionlessTransport().handleRequest(req);
  const body = await readJsonBody(req, BODY_LIMITS.default);
  const messages = Array.isArray(body) ? body : [body];
  if (!messages.some((m) => isInitializeRequest(m))) {
    return sessionlessTransport().handleRequest(req, { parsedBody: body, authInfo });
  }
  const init = messages.find((m) => isInitializeRequest(m)) as { params: { protocolVersion?: unknown } };
  // The row is written before the transport checks the request (Accept, Content-Type, one
  // initialize per batch): those checks are the SDK's, not copied here. So an initialize it
  // refuses (406, 415, 400), or one whose session was closed here meanwhile (503, a shutdown),
  // has its row deleted again: its client never learned the id.
  const id = await createMcpSession(db, principal, agentId);
  let live: LiveSession;
  try {
    live = await openSession(db, agentId, id, negotiatedVersion(init.params.protocolVersion));
  } catch (error) {
    await dropUnannouncedSession(db, id);
    throw error;
  }
  noteKey(live, principal);
  let response = isHeld(live) ? await live.transport.handleRequest(req, { parsedBody: body, authInfo }) : unavailable();
  if (response.ok && isHeld(live)) return response;
  if (response.ok) response = await discard(response);
  closeSession(live.id);
  await dropUnannouncedSession(db, id);
  return response;
}

/** Deletes the row of a session whose id its client never learned; one left behind is logged. */
async function dropUnannouncedSession(db: Db, id: string): Promise<void> {
  await dropRefusedMcpSession(db, id).catch((error: unknown) =>
    log.error("a refused MCP initialize left its session row", { session_id: id, ...describeError(error) }),
  );
}

/**
 * A session closed while its request was on the way to the transport or in it (the shutdown
 * began, or it was closed here otherwise): a stream the request opened would have nothing to
 * close it, so it is cancelled, and the client is told to send the request again.
 */
async function discard(response: Response): Promise<Response> {
  await response.body?.cancel().catch(() => undefined);
  return unavailable();
}

function unavailable(): Response {
  return isShuttingDown()
    ? rpcError(503, -32000, "this server is shutting down; reconnect")
    : rpcError(503, -32000, "this MCP session was closed here while the request was served; send it again");
}

/**
 * The SDK's transport decides from a request's MCP-Protocol-Version header whether a POST's
 * SSE stream may start with a priming event (an empty event with an id, which only clients
 * of 2025-11-25 and later can read). A client that negotiated 2025-11-25 but labels a
 * request with an older supported version still reads them: the session's negotiated
 * version decides (docs/decisions.md, MCP server). An unsupported header is left alone, so
 * the SDK refuses it as before.
 */
function withSessionVersion(req: Request, negotiated: string): Request {
  const sent = req.headers.get("mcp-protocol-version");
  if (req.method !== "POST" || sent === null || sent >= negotiated || !SUPPORTED_PROTOCOL_VERSIONS.includes(sent))
    return req;
  const headers = new Headers(req.headers);
  headers.set("mcp-protocol-version", negotiated);
  // The body was read already and is handed on parsed.
  return new Request(req.url, { method: req.method, headers });
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}
