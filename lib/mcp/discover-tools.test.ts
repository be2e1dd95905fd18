import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { STRICT_POSTURE } from "@/lib/egress";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { discoverTools } from "./discover-tools";

type Page = {
  tools: {
    name: string;
    description?: string;
    inputSchema: { type: "object"; properties?: Record<string, unknown> };
  }[];
  nextCursor?: string;
};

const servers: HttpServer[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
});

/** A stateless SDK server whose tools/list answers the page named by the cursor; records the headers it sees. */
async function sdkServer(pages: Record<string, Page>, seen: Record<string, unknown>[] = []): Promise<string> {
  const http = createServer(async (req, res) => {
    seen.push({ ...req.headers });
    const server = new Server({ name: "paged", version: "9.9" }, { capabilities: { tools: {} } });
    server.setRequestHandler(
      ListToolsRequestSchema,
      async (request) => pages[request.params?.cursor ?? ""] ?? { tools: [] },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    res.on("close", () => void transport.close());
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  servers.push(http);
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

const tool = (name: string) => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: "object" as const, properties: {} },
});

describe("discoverTools", () => {
  it("follows nextCursor until the last page and sends the headers with every request", async () => {
    const seen: Record<string, unknown>[] = [];
    const url = await sdkServer(
      {
        "": { tools: [tool("a"), tool("b")], nextCursor: "p2" },
        p2: { tools: [tool("c")], nextCursor: "p3" },
        p3: { tools: [tool("d")] },
      },
      seen,
    );
    const r = await discoverTools({ url, headers: { Authorization: "Bearer k" }, posture: DEV_POSTURE });
    expect(r.ok && r.tools.map((t) => t.name)).toEqual(["a", "b", "c", "d"]);
    expect(r.ok && r.server).toEqual({ name: "paged", version: "9.9" });
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.every((h) => h.authorization === "Bearer k")).toBe(true);
  });

  it("stops a server that repeats a cursor", async () => {
    const url = await sdkServer({
      "": { tools: [tool("a")], nextCursor: "again" },
      again: { tools: [tool("b")], nextCursor: "again" },
    });
    const r = await discoverTools({ url, headers: {}, posture: DEV_POSTURE });
    expect(r).toEqual({ ok: false, kind: "failed", error: "the server repeated a tools/list cursor" });
  });

  it("reports an egress refusal with the guard's message, rule and hint", async () => {
    const url = await sdkServer({ "": { tools: [tool("a")] } });
    const r = await discoverTools({ url, headers: {}, posture: STRICT_POSTURE });
    expect(r).toMatchObject({ ok: false, kind: "blocked", message: expect.stringMatching(/^destination blocked: /) });
    expect(!r.ok && r.kind === "blocked" && r.hint).toMatch(/INSIKA_EGRESS/);
  });

  it("reports a server that is down as a failure, with the cause", async () => {
    const url = await sdkServer({});
    await new Promise<void>((resolve) => servers[0]?.close(() => resolve()));
    servers.length = 0;
    const r = await discoverTools({ url, headers: {}, posture: DEV_POSTURE, timeoutMs: 5000 });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.kind).toBe("failed");
    expect(!r.ok && r.kind === "failed" && r.error).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it("reports an HTTP error from the server", async () => {
    const http = createServer((_req, res) => res.writeHead(500, { "content-type": "text/plain" }).end("kaputt"));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    servers.push(http);
    const r = await discoverTools({
      url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
      headers: {},
      posture: DEV_POSTURE,
    });
    expect(r).toMatchObject({ ok: false, kind: "failed", error: expect.stringContaining("kaputt") });
  });
});
