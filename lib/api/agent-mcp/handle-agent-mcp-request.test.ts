import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { listSessions } from "@/db/queries/sessions";
import { operatorPrincipal } from "@/lib/access/principal";
import { parseEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { authenticateKey, createKey, revokeKey } from "@/lib/services/keys/api-keys";
import { agentRow } from "@/test/support/agent-row";
import { handleAgentMcpRequest, type AgentMcpContext } from "./handle-agent-mcp-request";
import { checkSessions, closeAllSessions, getLiveSession } from "./live-mcp-sessions";

const endpoint = "http://127.0.0.1:3000/v1/agents/a/mcp";

function mcpRequest(
  method: "GET" | "POST",
  sessionId?: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Request {
  return new Request(endpoint, {
    method,
    headers: {
      host: "127.0.0.1:3000",
      accept: "application/json, text/event-stream",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const initialize = (id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

async function context(): Promise<AgentMcpContext> {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a"));
  return { db, env: parseEnv({ INSIKA_DATA_DIR: "/nonexistent" }), principal: operatorPrincipal("api"), agentId: "a" };
}

// The transport's refusals of an initialize, each with the status and message it answers.
const refusals: [string, () => Request, number, string][] = [
  ["a batch of two initializes", () => mcpRequest("POST", undefined, [initialize(1), initialize(2)]), 400, "Only one"],
  [
    "a body labelled text/plain",
    () => mcpRequest("POST", undefined, initialize(), { "content-type": "text/plain" }),
    415,
    "Unsupported Media Type",
  ],
  [
    "a client accepting JSON only",
    () => mcpRequest("POST", undefined, initialize(), { accept: "application/json" }),
    406,
    "Not Acceptable",
  ],
];

describe("handleAgentMcpRequest, an initialize the transport refuses", () => {
  it.each(refusals)("writes no session for %s, and answers as the transport does", async (_, request, status, text) => {
    const ctx = await context();
    const refused = await handleAgentMcpRequest(request(), ctx);
    expect(refused.status).toBe(status);
    expect(await refused.text()).toContain(text);
    expect(await listSessions(ctx.db, { agentId: "a" })).toEqual([]);

    const opened = await handleAgentMcpRequest(mcpRequest("POST", undefined, initialize()), ctx);
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    expect((await listSessions(ctx.db, { agentId: "a" })).map((s) => s.id)).toEqual([
      opened.headers.get("mcp-session-id"),
    ]);
  });

  it("logs a session row it could not delete, and still answers the refusal", async () => {
    const ctx = await context();
    vi.spyOn(ctx.db, "run").mockRejectedValueOnce(new Error("disk I/O error"));
    const logged = vi.spyOn(log, "error").mockImplementation(() => undefined);
    try {
      const refused = await handleAgentMcpRequest(refusals[0]![1](), ctx);
      expect(refused.status).toBe(400);
      const [left] = await listSessions(ctx.db, { agentId: "a" });
      expect(logged).toHaveBeenCalledWith("a refused MCP initialize left its session row", {
        session_id: left!.id,
        error: "disk I/O error",
        stack: expect.any(String),
      });
    } finally {
      logged.mockRestore();
    }
  });
});

/** Reads `stream` to its end; resolves true once it is done. */
async function ended(stream: ReadableStream<Uint8Array>): Promise<true> {
  const reader = stream.getReader();
  for (;;) if ((await reader.read()).done) return true;
}

describe("handleAgentMcpRequest, a key that stops working", () => {
  async function keyContext(expiresAt?: string) {
    const ctx = await context();
    const admin = operatorPrincipal("cli");
    const made = await createKey(ctx.db, admin, {
      name: "mcp client",
      scopes: ["turns:run"],
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    });
    const auth = await authenticateKey(ctx.db, made.key, "api");
    if (!auth.ok) throw new Error(`the new key does not authenticate: ${auth.reason}`);
    const keyCtx: AgentMcpContext = { ...ctx, principal: auth.principal };
    const opened = await handleAgentMcpRequest(mcpRequest("POST", undefined, initialize()), keyCtx);
    expect(opened.status).toBe(200);
    await opened.text();
    const sessionId = opened.headers.get("mcp-session-id")!;
    const stream = await handleAgentMcpRequest(mcpRequest("GET", sessionId), keyCtx);
    expect(stream.status).toBe(200);
    return { ctx: keyCtx, admin, keyId: made.id, sessionId, stream: stream.body! };
  }

  it("ends the session's open stream here at the next check once the key is revoked", async () => {
    const { ctx, admin, keyId, sessionId, stream } = await keyContext();
    const logged = vi.spyOn(log, "info").mockImplementation(() => undefined);
    try {
      await checkSessions();
      expect(getLiveSession(sessionId)).toBeDefined(); // the key still works: nothing closed

      await revokeKey(ctx.db, admin, keyId);
      await checkSessions();
      expect(getLiveSession(sessionId)).toBeUndefined();
      expect(await ended(stream)).toBe(true);
      expect(logged).toHaveBeenCalledWith("closed an MCP session here: a key that used it no longer works", {
        session_id: sessionId,
        key_id: keyId,
        reason: "revoked",
      });
    } finally {
      logged.mockRestore();
    }
    // The session itself stays valid for a key that works (here, the operator's).
    const again = await handleAgentMcpRequest(mcpRequest("GET", sessionId), {
      ...ctx,
      principal: operatorPrincipal("api"),
    });
    expect(again.status).toBe(200);
    await again.body?.cancel();
  });

  it("ends it once the key expires", async () => {
    const now = Date.now();
    const { keyId, sessionId, stream } = await keyContext(new Date(now + 60_000).toISOString());
    const logged = vi.spyOn(log, "info").mockImplementation(() => undefined);
    try {
      await checkSessions(now + 30_000);
      expect(getLiveSession(sessionId)).toBeDefined();
      await checkSessions(now + 61_000);
      expect(getLiveSession(sessionId)).toBeUndefined();
      expect(await ended(stream)).toBe(true);
      expect(logged).toHaveBeenCalledWith(expect.any(String), {
        session_id: sessionId,
        key_id: keyId,
        reason: "expired",
      });
    } finally {
      logged.mockRestore();
    }
  });
});

// The registry of live sessions is per process and a shutdown cannot be undone: this file's
// tests share it, and the shutdown comes last.
describe("handleAgentMcpRequest around a shutdown", () => {
  it("refuses (503), and leaves no stream open, a request already under way when the shutdown begins", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a"));
    const ctx: AgentMcpContext = {
      db,
      env: parseEnv({ INSIKA_DATA_DIR: "/nonexistent" }),
      principal: operatorPrincipal("api"),
      agentId: "a",
    };
    const opened = await handleAgentMcpRequest(
      mcpRequest("POST", undefined, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      }),
      ctx,
    );
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.text();
    expect(getLiveSession(sessionId)).toBeDefined();

    // The standalone SSE stream of a session held here: open until the session closes.
    const held = await handleAgentMcpRequest(mcpRequest("GET", sessionId), ctx);
    expect(held.status).toBe(200);
    const heldReader = held.body!.getReader();

    // A second GET passes the shutdown check, then the shutdown begins while it waits on the
    // database: it would revive the session and open a stream nothing closes.
    // So does an initialize: it would write a session row whose id its client never learns.
    const late = handleAgentMcpRequest(mcpRequest("GET", sessionId), ctx);
    const lateInitialize = handleAgentMcpRequest(mcpRequest("POST", undefined, initialize(2)), ctx);
    closeAllSessions();
    const refused = await late;
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain("shutting down");
    expect(getLiveSession(sessionId)).toBeUndefined();
    const refusedInitialize = await lateInitialize;
    expect(refusedInitialize.status).toBe(503);
    expect(refusedInitialize.headers.get("mcp-session-id")).toBeNull();
    expect((await listSessions(db, { agentId: "a" })).map((s) => s.id)).toEqual([sessionId]);
    // The held stream was ended by the shutdown.
    for (;;) if ((await heldReader.read()).done) break;

    const after = await handleAgentMcpRequest(mcpRequest("GET", sessionId), ctx);
    expect(after.status).toBe(503);
  });
});
