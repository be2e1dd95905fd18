/**
 * The headers of an MCP import stay with the origin they were given for, on
 * the call path too: a stored tool's call redirected to another origin
 * (127.0.0.1 -> 127.0.0.2, a loopback server recording what it receives)
 * carries none of them, literal or secret, and the trace masks them all.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { executeDataTool } from "@/lib/http-tools";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { createMcpCaller, McpSessions, toDataTools } from "@/lib/mcp";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { parseMcpImportBody } from "@/lib/services/mcp/parse-mcp-import-body";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
});

async function listen(handler: Parameters<typeof createServer>[1], host: string): Promise<string> {
  const s = createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, host, resolve));
  servers.push(s);
  return `http://${host}:${(s.address() as AddressInfo).port}`;
}

describe("an imported MCP tool's call redirected to another origin", () => {
  it("sends none of the import's headers there, and masks them all in the trace", async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const target = await listen((req, res) => {
      elsewhere.push({ ...req.headers });
      res.writeHead(500).end();
    }, "127.0.0.2");
    const origin = await listen((_req, res) => res.writeHead(307, { location: `${target}/mcp` }).end(), "127.0.0.1");

    const secrets = staticSecrets({ mcp_key: "s3cret-value" });
    const req = parseMcpImportBody(
      {
        name: "remote",
        url: `${origin}/mcp`,
        headers: { Authorization: "Bearer {{secret.mcp_key}}", "X-Tenant-Key": "literal-credential", "X-Team": "blue" },
      },
      secrets,
    );
    const { tools } = toDataTools([{ name: "echo", inputSchema: { type: "object" } }], {
      instance: req.name,
      url: req.url,
      headers: req.headers,
      secretHeaders: req.secretHeaders,
    });
    const tool = tools[0]?.definition;
    expect(tool).toBeDefined();
    const result = await executeDataTool(
      tool!,
      {},
      {},
      { posture: DEV_POSTURE, secrets, mcp: createMcpCaller(new McpSessions()) },
    );

    expect(result.ok).toBe(false);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const h of elsewhere) {
      expect(h.authorization).toBeUndefined();
      expect(h["x-tenant-key"]).toBeUndefined();
      expect(h["x-team"]).toBeUndefined();
    }
    const headers = result.record.request?.headers ?? {};
    expect(headers).toMatchObject({ Authorization: "[secret]", "X-Tenant-Key": "[secret]", "X-Team": "[secret]" });
  });
});
