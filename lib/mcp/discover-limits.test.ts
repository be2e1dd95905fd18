/**
 * Discovery keeps secrets home and is bounded, against loopback
 * servers: a redirect to another loopback origin (127.0.0.2) that records what
 * it received, and SDK servers that answer too much.
 */
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { discoverTools } from "./discover-tools";

type Tool = {
  name: string;
  description?: string;
  inputSchema: { type: "object"; properties?: Record<string, unknown> };
  outputSchema?: Record<string, unknown>;
};

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
});

async function listen(http: HttpServer, host = "127.0.0.1"): Promise<string> {
  await new Promise<void>((resolve) => http.listen(0, host, resolve));
  servers.push(http);
  return `http://${host}:${(http.address() as AddressInfo).port}`;
}

/** A stateless SDK server listing `tools` (JSON answers, or SSE with `sse`); records the headers it sees. */
async function sdkServer(
  tools: Tool[],
  options: { sse?: boolean; seen?: IncomingHttpHeaders[]; host?: string } = {},
): Promise<string> {
  const http = createServer(async (req, res) => {
    options.seen?.push({ ...req.headers });
    const server = new Server({ name: "big", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !options.sse,
    });
    await server.connect(transport);
    res.on("close", () => void transport.close());
    await transport.handleRequest(req, res);
  });
  return `${await listen(http, options.host)}/mcp`;
}

const IMPORT_HEADERS = {
  Authorization: "Bearer k-1",
  "X-Tenant-Key": "literal-credential",
  Cookie: "sid=1",
  "X-Team": "blue",
};

describe("discovery: secrets stay with the origin they were given for", () => {
  it("sends nothing to another origin a server redirects to (127.0.0.1 -> 127.0.0.2) and says why the import failed", async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const target = await sdkServer([{ name: "a", inputSchema: { type: "object" } }], {
      seen: elsewhere,
      host: "127.0.0.2",
    });
    const first: IncomingHttpHeaders[] = [];
    const origin = await listen(
      createServer((req, res) => {
        first.push({ ...req.headers });
        res.writeHead(307, { location: target }).end();
      }),
    );
    const r = await discoverTools({ url: `${origin}/mcp`, headers: IMPORT_HEADERS, posture: DEV_POSTURE });
    expect(r).toEqual({
      ok: false,
      kind: "failed",
      error: `the MCP server redirects to ${target}, another origin: an import does not follow it, so its headers never leave the origin they were given for (import that URL directly if you trust it)`,
    });
    expect(first[0]).toMatchObject({
      authorization: "Bearer k-1",
      "x-tenant-key": "literal-credential",
      "x-team": "blue",
    });
    expect(elsewhere).toEqual([]);
  });

  it("follows a redirect within the origin, headers kept", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const http = createServer((req, res) => {
      if (req.url === "/old") return void res.writeHead(307, { location: "/mcp" }).end();
      seen.push({ ...req.headers });
      res.writeHead(404).end();
    });
    const origin = await listen(http);
    await discoverTools({ url: `${origin}/old`, headers: IMPORT_HEADERS, posture: DEV_POSTURE, timeoutMs: 5000 });
    expect(seen[0]).toMatchObject({ authorization: "Bearer k-1", "x-tenant-key": "literal-credential" });
  });
});

describe("discovery: bounds", () => {
  const padded = (n: number, bytes: number): Tool[] =>
    Array.from({ length: n }, (_, i) => ({
      name: `t${i}`,
      description: "x".repeat(bytes),
      inputSchema: { type: "object" },
    }));

  it.each([
    ["JSON", false],
    ["SSE", true],
  ])("refuses a %s response larger than the per-response cap, fast and as too-large", async (_label, sse) => {
    const url = await sdkServer(padded(40, 4000), { sse });
    const r = await discoverTools({
      url,
      headers: {},
      posture: DEV_POSTURE,
      maxResponseBytes: 64 * 1024,
      timeoutMs: 20_000,
    });
    expect(r).toEqual({
      ok: false,
      kind: "too-large",
      error: "the MCP server sent a response larger than 64 KiB (the limit per response during an import)",
    });
  });

  it("accepts a listing within the cap", async () => {
    const url = await sdkServer(padded(10, 1000), { sse: true });
    const r = await discoverTools({ url, headers: {}, posture: DEV_POSTURE, maxResponseBytes: 64 * 1024 });
    expect(r.ok && r.tools).toHaveLength(10);
  });

  it("refuses a server listing more tools than the limit as too-large", async () => {
    const url = await sdkServer(padded(6, 1));
    const r = await discoverTools({ url, headers: {}, posture: DEV_POSTURE, maxTools: 5 });
    expect(r).toEqual({
      ok: false,
      kind: "too-large",
      error: "the MCP server lists more than 5 tools (the limit of one import)",
    });
  });

  it("does not compile the output schemas a server lists (discovery never reads them)", async () => {
    // The SDK client compiled each outputSchema with Ajv while listing: one schema of 50,000
    // properties (1.3 MB, under the response cap) blocked the event loop for seconds.
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`p${i}`, { type: "string" }]));
    const url = await rawServer([
      { name: "wide", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: wide } },
    ]);
    const started = performance.now();
    const r = await discoverTools({ url, headers: {}, posture: DEV_POSTURE, timeoutMs: 60_000 });
    const elapsed = performance.now() - started;
    expect(r.ok && r.tools.map((t) => t.name)).toEqual(["wide"]);
    expect(elapsed).toBeLessThan(2_000);
  }, 90_000);
});

/** A stateless server written by hand (a hostile one need not be the SDK's): JSON answers, `tools` as given. */
async function rawServer(tools: Tool[]): Promise<string> {
  const listing = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: { tools } });
  const http = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const rpc = JSON.parse(body) as { id?: unknown; method?: string };
      if (rpc.id === undefined) return void res.writeHead(202).end();
      const result = {
        protocolVersion: "2025-06-18",
        capabilities: { tools: {} },
        serverInfo: { name: "raw", version: "1" },
      };
      const text =
        rpc.method === "tools/list" ? listing(rpc.id) : JSON.stringify({ jsonrpc: "2.0", id: rpc.id, result });
      res.writeHead(200, { "content-type": "application/json" }).end(text);
    });
  });
  return `${await listen(http)}/mcp`;
}
