/**
 * Test-only: a tiny MCP server on 127.0.0.1 (a loopback server, see startLoopbackServer) that behaves the way real
 * Streamable HTTP servers do (see TOOLCHAIN.md): 415/406 without the right
 * headers, sessions (or none, when stateless), 400 or 404 for a forgotten
 * session, SSE answers primed with an empty event and preceded by progress
 * notifications. It speaks only what the call envelope uses.
 */
import type { ServerResponse } from "node:http";
import { startLoopbackServer, type LoopbackServer, type ReceivedRequest } from "./loopback-server";

export interface LoopbackMcpServerOptions {
  /** Issue and require `Mcp-Session-Id` (default true). */
  stateful?: boolean;
  /** Answer requests as SSE (default true); else plain JSON. */
  sse?: boolean;
  /** Status for an unknown session id: 404 (the spec) or 400 (the SDK's servers). Default 400. */
  staleStatus?: 400 | 404;
  /** Treat the session of every tools/call as forgotten (a server that keeps losing sessions). */
  alwaysStale?: boolean;
}

export interface LoopbackMcpServer {
  backend: LoopbackServer;
  url: string;
  /** Live session ids. */
  sessions: Set<string>;
  /** How many of each method arrived. */
  counts: Record<string, number>;
  /** Every tools/call that reached a tool, with the headers it came with. */
  calls: ReceivedRequest[];
  /** Forgets every session, as a restarted server would. */
  forgetSessions(): void;
  close(): Promise<void>;
}

type Rpc = { jsonrpc?: string; id?: number | string; method?: string; params?: Record<string, unknown> };

let sessionSeq = 0;

/** Starts the server; its endpoint is `<origin>/mcp`. */
export async function startLoopbackMcpServer(options: LoopbackMcpServerOptions = {}): Promise<LoopbackMcpServer> {
  const stateful = options.stateful ?? true;
  const sse = options.sse ?? true;
  const sessions = new Set<string>();
  const counts: Record<string, number> = {};
  const calls: ReceivedRequest[] = [];

  const answer = (
    res: ServerResponse,
    id: Rpc["id"],
    payload: { result?: unknown; error?: unknown },
    headers: Record<string, string> = {},
  ) => {
    const message = JSON.stringify({ jsonrpc: "2.0", id, ...payload });
    if (!sse) {
      res.writeHead(200, { "content-type": "application/json", ...headers }).end(message);
      return;
    }
    const progress = JSON.stringify({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1, total: 2 },
    });
    res.writeHead(200, { "content-type": "text/event-stream", ...headers });
    res.end(
      `event: message\nid: 0\ndata: \n\nevent: message\ndata: ${progress}\n\nevent: message\ndata: ${message}\n\n`,
    );
  };
  const fail = (res: ServerResponse, status: number, message: string, id: Rpc["id"] = undefined) =>
    res
      .writeHead(status, { "content-type": "application/json" })
      .end(JSON.stringify({ jsonrpc: "2.0", id: id ?? null, error: { code: -32000, message } }));

  const backend = await startLoopbackServer((req, res) => {
    if (!(req.headers["content-type"] ?? "").includes("application/json"))
      return fail(res, 415, "Unsupported Media Type");
    const accept = req.headers.accept ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream"))
      return fail(res, 406, "Not Acceptable");
    let rpc: Rpc;
    try {
      rpc = JSON.parse(req.body) as Rpc;
    } catch {
      return fail(res, 400, "Parse error");
    }
    const method = rpc.method ?? "";
    counts[method] = (counts[method] ?? 0) + 1;
    const sid = req.headers["mcp-session-id"];
    if (method === "initialize") {
      const headers: Record<string, string> = {};
      if (stateful) {
        const id = `sess-${(sessionSeq += 1)}`;
        sessions.add(id);
        headers["mcp-session-id"] = id;
      }
      return answer(
        res,
        rpc.id,
        {
          result: {
            protocolVersion: rpc.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "fake", version: "1" },
          },
        },
        headers,
      );
    }
    if (stateful) {
      if (typeof sid !== "string") return fail(res, 400, "Bad Request: Server not initialized", rpc.id);
      if (!sessions.has(sid))
        return fail(res, options.staleStatus ?? 400, "Bad Request: No valid session ID provided", rpc.id);
    }
    if (method === "notifications/initialized") return void res.writeHead(202).end();
    if (method !== "tools/call") return answer(res, rpc.id, { error: { code: -32601, message: "Method not found" } });
    if (options.alwaysStale)
      return fail(res, options.staleStatus ?? 400, "Bad Request: No valid session ID provided", rpc.id);
    calls.push(req);
    const args = (rpc.params?.arguments ?? {}) as Record<string, unknown>;
    switch (rpc.params?.name) {
      case "echo":
        return answer(res, rpc.id, { result: { content: [{ type: "text", text: `Echo: ${String(args.message)}` }] } });
      case "weather":
        return answer(res, rpc.id, {
          result: { content: [{ type: "text", text: "{}" }], structuredContent: { temperature: 33 } },
        });
      case "fail":
        return answer(res, rpc.id, { result: { isError: true, content: [{ type: "text", text: "it broke" }] } });
      default:
        return answer(res, rpc.id, { error: { code: -32602, message: `Tool ${String(rpc.params?.name)} not found` } });
    }
  });
  return {
    backend,
    url: `${backend.origin}/mcp`,
    sessions,
    counts,
    calls,
    forgetSessions: () => sessions.clear(),
    close: () => backend.close(),
  };
}
