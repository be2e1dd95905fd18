import { afterEach, describe, expect, it } from "vitest";
import { STRICT_POSTURE } from "@/lib/egress";
import { executeDataTool, type DataToolResult } from "@/lib/http-tools";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { dataTool } from "@/test/support/data-tool";
import {
  startLoopbackMcpServer,
  type LoopbackMcpServer,
  type LoopbackMcpServerOptions,
} from "@/test/support/loopback-mcp-server";
import { staticSecrets } from "@/lib/secrets/secret-source";
import type { DataToolDefinition } from "@/lib/tools/types";
import { createMcpCaller } from "./create-mcp-caller";
import { McpSessions } from "./mcp-sessions";

const servers: LoopbackMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options?: LoopbackMcpServerOptions): Promise<LoopbackMcpServer> {
  const s = await startLoopbackMcpServer(options);
  servers.push(s);
  return s;
}

function mcpTool(
  url: string,
  mcpName: string,
  headers: Record<string, string> = { Authorization: "Bearer {{secret.tok}}" },
): DataToolDefinition {
  return dataTool({
    name: mcpName.replace(/-/g, "_"),
    parameters: { type: "object", properties: { message: { type: "string" } } },
    request: { method: "POST", url, headers, query: {}, protocol: "mcp", mcp_tool: mcpName },
    secret_headers: Object.keys(headers).filter((h) => h.toLowerCase() === "authorization"),
  });
}

function harness(posture = DEV_POSTURE) {
  const sessions = new McpSessions();
  const mcp = createMcpCaller(sessions);
  const call = (tool: DataToolDefinition, args: Record<string, unknown> = {}, secret = "tok-1") =>
    executeDataTool(tool, args, {}, { posture, secrets: staticSecrets({ tok: secret }), mcp });
  return { sessions, call };
}

const errorOf = (r: DataToolResult) => (r.ok ? null : r.error);

describe("MCP calls against a stateful SSE server", () => {
  it("handshakes once, then sends only tools/call with the session; unwraps the text", async () => {
    const s = await server();
    const { call } = harness();
    const first = await call(mcpTool(s.url, "echo"), { message: "hi" });
    const second = await call(mcpTool(s.url, "echo"), { message: "again" });
    expect(first.content).toBe('"Echo: hi"');
    expect(second.content).toBe('"Echo: again"');
    expect(s.counts).toEqual({ initialize: 1, "notifications/initialized": 1, "tools/call": 2 });
    expect(s.calls[1]?.headers["mcp-session-id"]).toBe([...s.sessions][0]);
    expect(s.calls[1]?.headers.authorization).toBe("Bearer tok-1");
    expect(s.calls[1]?.headers["mcp-protocol-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("records the JSON-RPC request and the unwrapped result in the trace, secrets masked", async () => {
    const s = await server();
    const { call } = harness();
    const r = await call(mcpTool(s.url, "weather"));
    expect(r.ok).toBe(true);
    expect(r.record).toMatchObject({ kind: "mcp", status: 200, ok: true, result: '{"temperature":33}' });
    expect(JSON.parse(r.record.request?.body ?? "")).toMatchObject({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "weather", arguments: {} },
    });
    expect(r.record.request?.headers).toMatchObject({
      Authorization: "[secret]",
      Accept: "application/json, text/event-stream",
    });
    expect(JSON.stringify(r.record)).not.toContain("tok-1");
  });

  it.each([400, 404] as const)(
    "re-initializes once when the server answers %i for a forgotten session",
    async (staleStatus) => {
      const s = await server({ staleStatus });
      const { call } = harness();
      expect((await call(mcpTool(s.url, "echo"), { message: "one" })).ok).toBe(true);
      s.forgetSessions();
      const after = await call(mcpTool(s.url, "echo"), { message: "two" });
      expect(after.content).toBe('"Echo: two"');
      expect(s.counts.initialize).toBe(2);
      expect(s.counts["tools/call"]).toBe(3);
    },
  );

  it("gives up after one fresh handshake when the server keeps refusing the session", async () => {
    const s = await server({ alwaysStale: true });
    const { call } = harness();
    const r = await call(mcpTool(s.url, "echo"), { message: "x" });
    expect(r.ok).toBe(false);
    expect(errorOf(r)).toBe(
      "tools/call: the MCP server answered HTTP 400 (MCP error -32000: Bad Request: No valid session ID provided)",
    );
    expect(s.counts).toMatchObject({ initialize: 2, "tools/call": 2 });
  });

  it("shares one handshake between concurrent calls", async () => {
    const s = await server();
    const { call } = harness();
    const results = await Promise.all([1, 2, 3].map((i) => call(mcpTool(s.url, "echo"), { message: String(i) })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(s.counts.initialize).toBe(1);
  });

  it("keeps one session per credentials", async () => {
    const s = await server();
    const { call, sessions } = harness();
    await call(mcpTool(s.url, "echo"), { message: "a" }, "tok-1");
    await call(mcpTool(s.url, "echo"), { message: "b" }, "tok-2");
    await call(mcpTool(s.url, "echo"), { message: "c" }, "tok-1");
    expect(s.counts.initialize).toBe(2);
    expect(sessions.size).toBe(2);
  });

  it("turns isError and JSON-RPC errors into error results the model reads", async () => {
    const s = await server();
    const { call } = harness();
    const failed = await call(mcpTool(s.url, "fail"));
    expect(failed.ok).toBe(false);
    expect(failed.content).toBe('{"error":"it broke"}');
    expect(failed.record.status).toBe(200);
    const missing = await call(mcpTool(s.url, "nope"));
    expect(errorOf(missing)).toBe("MCP error -32602: Tool nope not found");
  });
});

describe("MCP calls: other servers and failures", () => {
  it("works with a stateless server that answers plain JSON", async () => {
    const s = await server({ stateful: false, sse: false });
    const { call } = harness();
    expect((await call(mcpTool(s.url, "echo"), { message: "a" })).content).toBe('"Echo: a"');
    expect((await call(mcpTool(s.url, "echo"), { message: "b" })).content).toBe('"Echo: b"');
    expect(s.calls[1]?.headers["mcp-session-id"]).toBeUndefined();
    expect(s.counts.initialize).toBe(1);
  });

  it("reports a server that is down without throwing", async () => {
    const s = await server();
    const url = s.url;
    await s.close();
    const { call } = harness();
    const r = await call(mcpTool(url, "echo"), { message: "x" });
    expect(r.ok).toBe(false);
    expect(errorOf(r)).toMatch(/ECONNREFUSED|connect|refused/i);
  });

  it("is blocked by the egress guard like any data tool, and nothing is sent", async () => {
    const s = await server();
    const { call } = harness(STRICT_POSTURE);
    const r = await call(mcpTool(s.url, "echo"), { message: "x" });
    expect(errorOf(r)).toMatch(/^destination blocked: /);
    expect(r.record.egress?.verdict).toBe("blocked");
    expect(s.backend.requests).toHaveLength(0);
  });

  it("validates arguments before anything is sent", async () => {
    const s = await server();
    const { call } = harness();
    const r = await call(mcpTool(s.url, "echo"), { message: 42 });
    expect(r.ok).toBe(false);
    expect(s.backend.requests).toHaveLength(0);
  });
});
