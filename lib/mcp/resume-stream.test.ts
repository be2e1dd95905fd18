/**
 * Resumability through the whole call path (executeDataTool -> the MCP seam ->
 * postToolsCall -> the egress guard) against a loopback server that ends the
 * tools/call stream early, as SEP-1699 servers do, and replays on GET.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { executeDataTool } from "@/lib/http-tools";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { dataTool } from "@/test/support/data-tool";
import { startLoopbackServer, type LoopbackServer, type ReceivedRequest } from "@/test/support/loopback-server";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { createMcpCaller } from "./create-mcp-caller";
import { McpSessions } from "./mcp-sessions";
import { RESUME_LIMITS } from "./resume-stream";

interface ResumableOptions {
  /** What a GET stream sends after its priming event: the answer (default), nothing, or the answer on the n-th GET. */
  answerOnGet?: number | "never";
  /** Give events ids (default true). */
  ids?: boolean;
  retry?: string;
  /** Status of the GET (default 200). */
  getStatus?: number;
  /** End each GET stream after what it sends (default: kept open, as a real one is). */
  getEnds?: boolean;
}

const backends: LoopbackServer[] = [];
const open: ServerResponse[] = [];
afterEach(async () => {
  for (const res of open.splice(0)) res.destroy();
  await Promise.all(backends.splice(0).map((b) => b.close()));
});

/** A server whose tools/call stream ends after its priming event; GETs (kept open) may carry the answer. */
async function resumable(options: ResumableOptions = {}) {
  const ids = options.ids ?? true;
  const retry = options.retry ?? "20";
  let pending: number | string | undefined;
  let gets = 0;
  let seq = 0;
  const event = (data: string) => `${ids ? `id: ev-${(seq += 1)}\n` : ""}retry: ${retry}\ndata: ${data}\n\n`;
  const b = await startLoopbackServer((req: ReceivedRequest, res: ServerResponse) => {
    if (req.method === "GET") {
      gets += 1;
      if (options.getStatus && options.getStatus !== 200) return void res.writeHead(options.getStatus).end();
      open.push(res);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(event(""));
      const due = options.answerOnGet ?? 1;
      if (due !== "never" && gets >= due && pending !== undefined) {
        res.write(
          event(
            JSON.stringify({
              jsonrpc: "2.0",
              id: pending,
              result: { content: [{ type: "text", text: "resumed answer" }] },
            }),
          ),
        );
      }
      if (options.getEnds) res.end();
      return;
    }
    const rpc = JSON.parse(req.body) as { id?: number; method: string };
    if (rpc.method === "initialize") {
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" });
      return void res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: rpc.id,
          result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "r", version: "1" } },
        }),
      );
    }
    if (rpc.id === undefined) return void res.writeHead(202).end();
    pending = rpc.id;
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(event(""));
  });
  backends.push(b);
  return { backend: b, gets: () => b.requests.filter((r) => r.method === "GET") };
}

function call(url: string, timeout?: number) {
  const tool = dataTool({
    name: "slow_tool",
    parameters: { type: "object", properties: {} },
    request: {
      method: "POST",
      url,
      headers: { Authorization: "Bearer {{secret.tok}}" },
      query: {},
      protocol: "mcp",
      mcp_tool: "slow-tool",
    },
    secret_headers: ["Authorization"],
    ...(timeout === undefined ? {} : { timeout }),
  });
  return executeDataTool(
    tool,
    {},
    {},
    { posture: DEV_POSTURE, secrets: staticSecrets({ tok: "t-1" }), mcp: createMcpCaller(new McpSessions()) },
  );
}

describe("MCP stream resumption", () => {
  it("reconnects with GET, Last-Event-ID and the session, and takes the result from the resumed stream", async () => {
    const s = await resumable();
    const result = await call(`${s.backend.origin}/mcp`);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(result.content).toContain("resumed answer");
    const [get] = s.gets();
    expect(s.gets()).toHaveLength(1);
    expect(get?.headers["last-event-id"]).toBe("ev-1");
    expect(get?.headers["mcp-session-id"]).toBe("s-1");
    expect(get?.headers.accept).toBe("text/event-stream");
    expect(get?.headers["content-type"]).toBeUndefined();
    expect(get?.headers.authorization).toBe("Bearer t-1");
  });

  it("keeps resuming with the newest event id, up to the limit", async () => {
    const s = await resumable({ answerOnGet: 2, getEnds: true });
    const result = await call(`${s.backend.origin}/mcp`);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    expect(s.gets().map((g) => g.headers["last-event-id"])).toEqual(["ev-1", "ev-2"]);
  });

  it("gives up after the limit with an error naming what happened", async () => {
    const s = await resumable({ answerOnGet: "never", getEnds: true });
    const result = await call(`${s.backend.origin}/mcp`);
    expect(result.ok ? "" : result.error).toBe(
      `MCP stream ended before the result; resumed ${RESUME_LIMITS.maxResumes} times; giving up after ${RESUME_LIMITS.maxResumes} reconnections`,
    );
    expect(s.gets().map((g) => g.headers["last-event-id"])).toEqual(["ev-1", "ev-2", "ev-3"]);
  });

  it("ends a resumed stream that stays open without the answer at the call's deadline", async () => {
    const s = await resumable({ answerOnGet: "never" });
    const result = await call(`${s.backend.origin}/mcp`, 1);
    expect(result.ok ? "" : result.error).toMatch(
      /^MCP stream ended before the result; resumed 1 time; request timed out after 1 s/,
    );
    expect(s.gets()).toHaveLength(1);
  });

  it("does not resume a stream without event ids, and says so", async () => {
    const s = await resumable({ ids: false });
    const result = await call(`${s.backend.origin}/mcp`);
    expect(result.ok ? "" : result.error).toBe(
      "MCP stream ended before the result; resumed 0 times; the server sent no event id to resume from",
    );
    expect(s.gets()).toHaveLength(0);
  });

  it("explains a server that offers no GET stream", async () => {
    const s = await resumable({ getStatus: 405 });
    const result = await call(`${s.backend.origin}/mcp`);
    expect(result.ok ? "" : result.error).toBe(
      "MCP stream ended before the result; resumed 1 time; the server does not offer a GET stream to resume on (HTTP 405)",
    );
  });

  it("does not wait a retry interval longer than the time the call has left", async () => {
    const s = await resumable({ retry: "999999999" });
    const result = await call(`${s.backend.origin}/mcp`, 1);
    expect(result.ok ? "" : result.error).toBe(
      "MCP stream ended before the result; resumed 0 times; no time left before the tool's timeout to wait the server's retry interval",
    );
    expect(s.gets()).toHaveLength(0);
  });
});
