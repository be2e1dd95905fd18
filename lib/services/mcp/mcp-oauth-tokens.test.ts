/**
 * The OAuth client-credentials requests of an MCP import and of every call are bounded, against
 * loopback servers: a token endpoint whose answer never ends, and one that never finishes answering.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ClientCredentialsTokens } from "@/lib/mcp/client-credentials-tokens";
import { oauthFetch } from "@/lib/mcp/oauth-fetch";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { oauthTokensFor } from "./mcp-oauth-tokens";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())))),
  );
});

/** A protected MCP server whose metadata is in order and whose token endpoint answers with `token`. */
async function protectedServer(token: (res: ServerResponse) => void): Promise<string> {
  let origin = "";
  const http = createServer((req, res) => {
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
    if (req.url === "/mcp") return json(401, { error: "unauthorized" }, { "www-authenticate": "Bearer" });
    if (req.url === "/.well-known/oauth-protected-resource/mcp")
      return json(200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (req.url === "/.well-known/oauth-authorization-server")
      return json(200, { issuer: origin, token_endpoint: `${origin}/token` });
    if (req.url === "/token") return token(res);
    json(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  servers.push(http);
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return `${origin}/mcp`;
}

const creds = (serverUrl: string) => ({ serverUrl, clientId: "c", clientSecret: `s-${Math.random()}` });

describe("OAuth token requests for MCP servers", () => {
  it("stop reading an answer that never ends at the cap, instead of buffering it whole", async () => {
    let sent = 0;
    const url = await protectedServer((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"access_token":"');
      const chunk = "x".repeat(64 * 1024);
      const drip = setInterval(() => {
        if (res.destroyed || !res.write(chunk)) return;
        sent += chunk.length;
      }, 2);
      res.on("close", () => clearInterval(drip));
    });
    const started = performance.now();
    const error = await oauthTokensFor(creds(url), DEV_POSTURE)
      .get()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message)).toContain("the OAuth server's answer is larger than 262144 bytes");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  }, 20_000);

  it("give up on an answer that never finishes within the deadline, naming it", async () => {
    const url = await protectedServer((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"access_token":'); // and nothing more, the connection kept open
    });
    const tokens = new ClientCredentialsTokens(
      creds(url),
      oauthFetch(DEV_POSTURE, { maxResponseBytes: 64 * 1024, timeoutMs: 500 }),
    );
    const started = performance.now();
    await expect(tokens.get()).rejects.toThrow(/did not answer within 500 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
