/**
 * The MCP sessions this process serves now: per session, the SDK transport (its open SSE
 * streams and the events a stream may resume from) and server. Everything else lives in the
 * database, so a session unknown here but valid there is revived (reviveSession) instead of
 * refused: any process of a fleet can serve any session. Kept on globalThis (one registry
 * per process, whichever route bundle loads this module); idle sessions are closed, and one
 * timer tells every live session `notifications/tools/list_changed` when its offer moves, and
 * closes a session here once a key that used it is revoked or expired, so that no stream it
 * opened outlives it.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/access/principal";
import { describeError, log } from "@/lib/log";
import { agentMcpPromptsFingerprint, agentMcpToolsFingerprint } from "@/lib/services/mcp-server/agent-mcp-offer";
import { createAgentMcpServer } from "@/lib/services/mcp-server/create-agent-mcp-server";
import { BODY_LIMITS } from "../body-limits";
import { checkLiveSessions } from "./check-live-sessions";
import { McpEventStore } from "./mcp-event-store";

/** How often each live session's offer (and its keys) is checked (checkLiveSessions). */
export const OFFER_CHECK_MS = 1_000;
/** The `retry` an SSE stream suggests to a client that lost it. */
export const SSE_RETRY_MS = 1_000;

export interface LiveSession {
  id: string;
  agentId: string;
  db: Db;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** The offer fingerprint the client last saw (tools/list_changed when it moves). */
  offer: string | undefined;
  /** Likewise for the prompts (the agent's skills; prompts/list_changed). */
  prompts?: string | undefined;
  /** The protocol version the session negotiated. */
  protocolVersion: string;
  /** The stored keys that sent this session requests since it was held here (noteKey). */
  keys: Set<string>;
}

/** The version `initialize` settles on: the client's when supported, else the latest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

const KEY = Symbol.for("insika.liveMcpSessions");
interface Registry {
  sessions: Map<string, LiveSession>;
  reviving: Map<string, Promise<LiveSession>>;
  /** Set once the process is shutting down: new requests are refused (503). */
  closing?: boolean;
  timer?: ReturnType<typeof setInterval>;
}

function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  let reg = holder[KEY];
  if (!reg) {
    reg = holder[KEY] = { sessions: new Map(), reviving: new Map() };
    // Open SSE streams would hold a graceful shutdown forever: end them when it starts.
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, closeAllSessions);
  }
  return reg;
}

/**
 * Ends every session held here and refuses new requests, so that a reconnecting client
 * cannot hold the shutdown open (its clients reconnect to another process, or after the restart).
 */
export function closeAllSessions(): void {
  registry().closing = true;
  for (const id of [...registry().sessions.keys()]) closeSession(id);
}

/** Whether this process is shutting down (its MCP endpoint answers 503). */
export function isShuttingDown(): boolean {
  return registry().closing === true;
}

export function getLiveSession(id: string): LiveSession | undefined {
  return registry().sessions.get(id);
}

/**
 * Whether this process still holds `live`: a shutdown, an idle close, a DELETE or a deleted
 * agent may close a session while a request of it is under way.
 */
export function isHeld(live: LiveSession): boolean {
  return registry().sessions.get(live.id) === live;
}

/**
 * Registers a session opened or revived here. Once the shutdown began it is closed at once
 * instead: its request passed the shutdown check before it, and a stream opened on it would
 * hold the shutdown open forever, nothing left to close it.
 */
function hold(live: LiveSession): void {
  if (registry().closing) {
    void live.transport.close().catch(() => undefined);
    return;
  }
  registry().sessions.set(live.id, live);
  startTimer();
}

function transportFor(sessionId: () => string, onClosed: (id: string) => void) {
  return new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: sessionId,
    eventStore: new McpEventStore(),
    retryInterval: SSE_RETRY_MS,
    maxRequestBodySize: BODY_LIMITS.default,
    onsessionclosed: onClosed,
    // Host/Origin are checked before the transport (mcp-host-check.ts): it allows any port of loopback.
  });
}

/**
 * A new session (`initialize`): its transport and server, registered here once the
 * handshake has been answered, then watched for offer changes.
 */
export async function openSession(db: Db, agentId: string, id: string, protocolVersion: string) {
  const transport = transportFor(
    () => id,
    (closed) => closeSession(closed),
  );
  const server = await createAgentMcpServer(db, { agentId, sessionId: id });
  await server.connect(transport);
  const live: LiveSession = {
    id,
    agentId,
    db,
    transport,
    server,
    lastUsed: Date.now(),
    offer: undefined,
    protocolVersion,
    keys: new Set(),
  };
  live.offer = await agentMcpToolsFingerprint(db, agentId, id);
  live.prompts = await agentMcpPromptsFingerprint(db, agentId);
  hold(live);
  return live;
}

/** For a request that names no session and is no `initialize`: the SDK answers it (400) and it is dropped. */
export function sessionlessTransport(): WebStandardStreamableHTTPServerTransport {
  return transportFor(
    () => "unused",
    () => undefined,
  );
}

/**
 * Serves a session this process does not hold (another process started it, or this one
 * closed it while idle): a fresh transport and server, initialized with a handshake of our
 * own so the SDK accepts the client's requests under the session id it already has.
 */
export function reviveSession(
  db: Db,
  agentId: string,
  id: string,
  protocolVersion: string | null,
): Promise<LiveSession> {
  // Two requests of one session arriving together revive it once.
  const reviving = registry().reviving;
  let pending = reviving.get(id);
  if (!pending) {
    pending = revive(db, agentId, id, protocolVersion).finally(() => reviving.delete(id));
    reviving.set(id, pending);
  }
  return pending;
}

async function revive(db: Db, agentId: string, id: string, protocolVersion: string | null): Promise<LiveSession> {
  const transport = transportFor(
    () => id,
    (closed) => closeSession(closed),
  );
  const server = await createAgentMcpServer(db, { agentId, sessionId: id });
  await server.connect(transport);
  const version =
    protocolVersion && SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)
      ? protocolVersion
      : LATEST_PROTOCOL_VERSION;
  const handshake = await transport.handleRequest(
    new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "insika-revive",
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "insika-revive", version: "1" } },
      }),
    }),
  );
  await handshake.text();
  const live: LiveSession = {
    id,
    agentId,
    db,
    transport,
    server,
    lastUsed: Date.now(),
    offer: await agentMcpToolsFingerprint(db, agentId, id),
    prompts: await agentMcpPromptsFingerprint(db, agentId),
    protocolVersion: version,
    keys: new Set(),
  };
  hold(live);
  return live;
}

/**
 * Remembers that `principal`'s key sent `live` a request: the session is closed here once that
 * key stops letting its holder in. The operator's own principal (CLI, config) has no stored key.
 */
export function noteKey(live: LiveSession, principal: Principal): void {
  if (principal.source === "api" || principal.source === "studio") live.keys.add(principal.keyId);
}

/** Forgets a session here (DELETE, idle); its database session and trace stay. */
export function closeSession(id: string): void {
  const live = registry().sessions.get(id);
  if (!live) return;
  registry().sessions.delete(id);
  void live.transport.close().catch(() => undefined);
}

function startTimer(): void {
  const reg = registry();
  if (reg.timer) return;
  reg.timer = setInterval(() => void checkSessions(), OFFER_CHECK_MS);
  reg.timer.unref();
}

let checking = false;

/** One check of every session held here (checkLiveSessions), never two at once. Exported for tests. */
export async function checkSessions(now = Date.now()): Promise<void> {
  if (checking) return;
  checking = true;
  try {
    await checkLiveSessions([...registry().sessions.values()], closeSession, now);
  } catch (error) {
    log.error("MCP session check failed", describeError(error));
  } finally {
    checking = false;
  }
}
