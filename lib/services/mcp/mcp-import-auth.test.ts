/**
 * OAuth client credentials of an MCP import: the body's `auth` is checked (a secret
 * reference only, provisioned, no Authorization header beside it), and on the call path
 * the token travels as a credential: sent, masked in the trace, refreshed on 401 (one
 * resend), and never sent to another origin on a redirect.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { executeDataTool, type McpCaller } from "@/lib/http-tools";
import { createMcpCaller, McpSessions, toDataTools } from "@/lib/mcp";
import { bearerSend } from "@/lib/mcp/bearer-send";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { parseMcpImportBody } from "./parse-mcp-import-body";
import { parseStoredMcpAuth } from "./mcp-import-auth";

const secrets = staticSecrets({ cc_secret: "the-client-secret" });
const body = (auth: unknown, extra: Record<string, unknown> = {}) => ({
  name: "remote",
  url: "https://mcp.example/mcp",
  auth,
  ...extra,
});
const good = { type: "oauth_client_credentials", client_id: "gw", client_secret: "{{secret.cc_secret}}", scope: "t" };

describe("the import body's auth", () => {
  it("resolves the secret for discovery and stores only its name", () => {
    const req = parseMcpImportBody(body(good), secrets);
    expect(req.auth).toEqual({
      stored: { type: "oauth_client_credentials", client_id: "gw", client_secret_name: "cc_secret", scope: "t" },
      clientSecret: "the-client-secret",
    });
    expect(req.secretValues).toContain("the-client-secret");
    expect(JSON.stringify(req.auth!.stored)).not.toContain("the-client-secret");
  });

  it("refuses a literal secret, an unprovisioned one, another type, unknown fields and an Authorization header beside it", () => {
    const refused: [unknown, Record<string, unknown>, RegExp][] = [
      [{ ...good, client_secret: "the-client-secret" }, {}, /auth.client_secret must be a secret reference/],
      [{ ...good, client_secret: "Bearer {{secret.cc_secret}}" }, {}, /auth.client_secret must be a secret reference/],
      [{ ...good, client_secret: "{{secret.missing}}" }, {}, /secret 'missing' is not provisioned/],
      [{ ...good, type: "oauth_authorization_code" }, {}, /auth.type must be 'oauth_client_credentials'/],
      [{ ...good, token: "x" }, {}, /auth/],
      [{ ...good, client_id: "" }, {}, /auth.client_id is required/],
      [{ ...good, client_id: "a\r\nb" }, {}, /CR, LF or NUL/],
      [good, { headers: { authorization: "Bearer {{secret.cc_secret}}" } }, /cannot be given with auth/],
      ["oauth", {}, /auth/],
    ];
    for (const [auth, extra, message] of refused) {
      expect(() => parseMcpImportBody(body(auth, extra), secrets), JSON.stringify(auth)).toThrow(message);
    }
  });

  it("reads a stored setting back, and nothing from a malformed one", () => {
    expect(
      parseStoredMcpAuth(
        JSON.stringify({ type: "oauth_client_credentials", client_id: "gw", client_secret_name: "s" }),
      ),
    ).toMatchObject({ client_id: "gw" });
    for (const raw of [undefined, "", "null", "{", '{"type":"other"}', '{"type":"oauth_client_credentials"}'])
      expect(parseStoredMcpAuth(raw), String(raw)).toBeNull();
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
});

async function listen(handler: Parameters<typeof createServer>[1], host = "127.0.0.1"): Promise<string> {
  const s = createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, host, resolve));
  servers.push(s);
  return `http://${host}:${(s.address() as AddressInfo).port}`;
}

/** A stateless MCP server that accepts only `Bearer fresh`, answering tools/call with a text. */
function protectedMcp(seen: IncomingHttpHeaders[]): Parameters<typeof createServer>[1] {
  return (req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      seen.push({ ...req.headers });
      if (req.headers.authorization !== "Bearer fresh") return void res.writeHead(401).end();
      const message = JSON.parse(raw) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === "initialize"
          ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "p", version: "1" } }
          : { content: [{ type: "text", text: "hello" }] };
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    });
  };
}

function toolAt(url: string) {
  const { tools } = toDataTools([{ name: "hello", inputSchema: { type: "object" } }], {
    instance: "remote",
    url,
    headers: {},
    secretHeaders: [],
  });
  return tools[0]!.definition;
}

describe("a call of an OAuth-protected MCP tool", () => {
  it("sends the token, refreshes it once on 401, and keeps it out of the trace", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const url = `${await listen(protectedMcp(seen))}/mcp`;
    let issued = ["stale", "fresh"];
    const tokens = { get: async () => issued[0]!, refresh: async () => (issued = issued.slice(1))[0]! };
    const base = createMcpCaller(new McpSessions());
    const mcp: McpCaller = (tool, args, ctx, send, info) => base(tool, args, ctx, bearerSend(send, tokens), info);
    const result = await executeDataTool(toolAt(url), {}, {}, { posture: DEV_POSTURE, secrets, mcp });
    expect(result.ok).toBe(true);
    expect(seen[0]!.authorization).toBe("Bearer stale");
    expect(seen.slice(1).every((h) => h.authorization === "Bearer fresh")).toBe(true);
    const record = JSON.stringify(result.record);
    expect(record).not.toContain("fresh");
    expect(record).not.toContain("stale");
    expect(result.record.request?.headers).toMatchObject({ Authorization: "[secret]" });
  });

  it("does not send the token to another origin a call is redirected to", async () => {
    const elsewhere: IncomingHttpHeaders[] = [];
    const target = await listen((req, res) => {
      elsewhere.push({ ...req.headers });
      res.writeHead(500).end();
    }, "127.0.0.2");
    const origin = await listen((_req, res) => res.writeHead(307, { location: `${target}/mcp` }).end());
    const tokens = { get: async () => "fresh", refresh: async () => "fresh" };
    const base = createMcpCaller(new McpSessions());
    const mcp: McpCaller = (tool, args, ctx, send, info) => base(tool, args, ctx, bearerSend(send, tokens), info);
    const result = await executeDataTool(toolAt(`${origin}/mcp`), {}, {}, { posture: DEV_POSTURE, secrets, mcp });
    expect(result.ok).toBe(false);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const h of elsewhere) expect(h.authorization).toBeUndefined();
  });
});
