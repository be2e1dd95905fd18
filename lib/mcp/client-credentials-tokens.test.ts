import { describe, expect, it } from "vitest";
import type { FetchLike } from "@/lib/egress";
import { ClientCredentialsTokens, requestClientCredentialsToken } from "./client-credentials-tokens";
import { authServerMetadataUrls, discoverTokenEndpoint, resourceMetadataUrl, wellKnownUrls } from "./oauth-metadata";
import { bearerSend } from "./bearer-send";

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: string;
}

/** A fake protected server: the MCP endpoint 401s naming its metadata, then PRM, AS metadata, a token endpoint. */
function fakeOAuth(options: { methods?: string[]; prmInHeader?: boolean; expiresIn?: number } = {}) {
  const seen: Seen[] = [];
  let issued = 0;
  const fetch: FetchLike = async (input, init = {}) => {
    const url = String(input);
    const body = typeof init.body === "string" ? init.body : "";
    seen.push({ url, method: init.method ?? "GET", headers: new Headers(init.headers), body });
    const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json", ...headers } });
    if (url === "https://mcp.example/mcp")
      return json({ error: "unauthorized" }, 401, {
        "www-authenticate":
          options.prmInHeader === false
            ? "Bearer"
            : 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"',
      });
    if (url === "https://mcp.example/.well-known/oauth-protected-resource/mcp")
      return json({ resource: "https://mcp.example/mcp", authorization_servers: ["https://auth.example"] });
    if (url === "https://auth.example/.well-known/oauth-authorization-server")
      return json({
        issuer: "https://auth.example",
        token_endpoint: "https://auth.example/token",
        ...(options.methods ? { token_endpoint_auth_methods_supported: options.methods } : {}),
      });
    if (url === "https://auth.example/token") {
      issued += 1;
      return json({ access_token: `tok-${issued}`, token_type: "Bearer", expires_in: options.expiresIn ?? 3600 });
    }
    return json({ error: "not found" }, 404);
  };
  return { fetch, seen, issued: () => issued };
}

const creds = { serverUrl: "https://mcp.example/mcp", clientId: "client:1", clientSecret: "s3cr&t", scope: "tools" };

describe("OAuth metadata discovery", () => {
  it("reads resource_metadata from WWW-Authenticate, quoted or not", () => {
    expect(resourceMetadataUrl('Bearer realm="x", resource_metadata="https://a/b"')).toBe("https://a/b");
    expect(resourceMetadataUrl("Bearer resource_metadata=https://a/c, scope=x")).toBe("https://a/c");
    expect(resourceMetadataUrl("Bearer")).toBeUndefined();
    expect(resourceMetadataUrl(null)).toBeUndefined();
  });

  it("builds the well-known URLs path-aware first", () => {
    expect(wellKnownUrls("https://h/mcp", "oauth-protected-resource")).toEqual([
      "https://h/.well-known/oauth-protected-resource/mcp",
      "https://h/.well-known/oauth-protected-resource",
    ]);
    expect(authServerMetadataUrls("https://as/tenant1")[0]).toBe(
      "https://as/.well-known/oauth-authorization-server/tenant1",
    );
    expect(authServerMetadataUrls("https://as")).toEqual([
      "https://as/.well-known/oauth-authorization-server",
      "https://as/.well-known/openid-configuration",
    ]);
  });

  it("follows 401 -> protected resource metadata -> authorization server metadata", async () => {
    const oauth = fakeOAuth({ methods: ["client_secret_basic"] });
    expect(await discoverTokenEndpoint(creds.serverUrl, oauth.fetch)).toEqual({
      tokenEndpoint: "https://auth.example/token",
      issuer: "https://auth.example",
      authMethods: ["client_secret_basic"],
      resource: "https://mcp.example/mcp",
    });
  });

  it("falls back to the well-known resource metadata when the 401 names none", async () => {
    const oauth = fakeOAuth({ prmInHeader: false });
    expect((await discoverTokenEndpoint(creds.serverUrl, oauth.fetch)).tokenEndpoint).toBe(
      "https://auth.example/token",
    );
  });

  it("names what is missing when there is no metadata", async () => {
    const none: FetchLike = async () => new Response("no", { status: 404 });
    await expect(discoverTokenEndpoint("https://bare.example/mcp", none)).rejects.toThrow(
      /no authorization server metadata for https:\/\/bare.example/,
    );
  });
});

describe("the client credentials token request", () => {
  it("authenticates with client_secret_basic (form-encoded id and secret) and sends resource and scope", async () => {
    const oauth = fakeOAuth();
    const endpoint = await discoverTokenEndpoint(creds.serverUrl, oauth.fetch);
    const token = await requestClientCredentialsToken(endpoint, creds, oauth.fetch, 1_000);
    expect(token).toEqual({ accessToken: "tok-1", expiresAt: 1_000 + 3_600_000 });
    const sent = oauth.seen.at(-1)!;
    expect(sent.headers.get("authorization")).toBe(`Basic ${Buffer.from("client%3A1:s3cr%26t").toString("base64")}`);
    const form = new URLSearchParams(sent.body);
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "client_credentials",
      scope: "tools",
      resource: "https://mcp.example/mcp",
    });
  });

  it("uses client_secret_post when the server offers only that, and refuses when it offers neither", async () => {
    const post = fakeOAuth({ methods: ["client_secret_post"] });
    await requestClientCredentialsToken(await discoverTokenEndpoint(creds.serverUrl, post.fetch), creds, post.fetch);
    const sent = post.seen.at(-1)!;
    expect(sent.headers.get("authorization")).toBeNull();
    expect(new URLSearchParams(sent.body).get("client_secret")).toBe("s3cr&t");
    const jwt = fakeOAuth({ methods: ["private_key_jwt"] });
    await expect(
      requestClientCredentialsToken(await discoverTokenEndpoint(creds.serverUrl, jwt.fetch), creds, jwt.fetch),
    ).rejects.toThrow(/supports none of client_secret_basic, client_secret_post/);
  });

  it("reports a refusal with the server's error, never the secret", async () => {
    const refusing: FetchLike = async () =>
      new Response(JSON.stringify({ error: "invalid_client", error_description: "bad secret" }), { status: 401 });
    const endpoint = { tokenEndpoint: "https://auth.example/token", issuer: "x", authMethods: [], resource: "r" };
    const error = await requestClientCredentialsToken(endpoint, creds, refusing).catch((e: Error) => e);
    expect((error as Error).message).toContain("HTTP 401: invalid_client: bad secret");
    expect((error as Error).message).not.toContain("s3cr");
  });
});

describe("answers that hold no token", () => {
  it("describe JSON null, a list or a scalar as an answer without access_token", async () => {
    const endpoint = { tokenEndpoint: "https://auth.example/token", issuer: "x", authMethods: [], resource: "r" };
    for (const text of ["null", "[]", "7"]) {
      const answering: FetchLike = async () => new Response(text, { status: 200 });
      await expect(requestClientCredentialsToken(endpoint, creds, answering)).rejects.toThrow(
        "the token endpoint https://auth.example/token refused the client credentials (HTTP 200: no access_token)",
      );
    }
  });
});

describe("ClientCredentialsTokens", () => {
  it("caches a token until it nears expiry, and refresh fetches a new one", async () => {
    const oauth = fakeOAuth({ expiresIn: 60 });
    let now = 0;
    const tokens = new ClientCredentialsTokens(creds, oauth.fetch, () => now);
    expect(await tokens.get()).toBe("tok-1");
    expect(await tokens.get()).toBe("tok-1");
    now = 31_000; // within the 30 s margin of its 60 s lifetime
    expect(await tokens.get()).toBe("tok-2");
    expect(await tokens.refresh()).toBe("tok-3");
    expect(oauth.issued()).toBe(3);
  });

  it("shares one request between concurrent callers", async () => {
    const oauth = fakeOAuth();
    const tokens = new ClientCredentialsTokens(creds, oauth.fetch);
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(["tok-1", "tok-1", "tok-1"]);
    expect(oauth.issued()).toBe(1);
  });
});

describe("ClientCredentialsTokens under a server that never answers", () => {
  it("ends the whole flow at its deadline, naming it, and aborts the request in flight", async () => {
    const asked: string[] = [];
    // Each request waits until it is aborted: only the flow's deadline can end it.
    const silent: FetchLike = (input, init = {}) => {
      asked.push(String(input));
      return new Promise((_resolve, reject) => {
        const signal = init.signal;
        if (!signal) return;
        if (signal.aborted) reject(signal.reason);
        else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    };
    const tokens = new ClientCredentialsTokens(creds, silent, Date.now, 50);
    await expect(tokens.get()).rejects.toThrow(
      "the OAuth flow for https://mcp.example/mcp did not finish within 50 ms (metadata discovery and token request together)",
    );
    expect(asked[0]).toBe("https://mcp.example/mcp");
  });
});

describe("bearerSend", () => {
  it("sends the token as a credential and, on 401, refreshes and sends once more", async () => {
    const sent: (Record<string, string> | undefined)[] = [];
    let answers = [401, 200];
    const send = async (message: { credentials?: Record<string, string> }) => {
      sent.push(message.credentials);
      const status = answers.shift() ?? 401;
      return { ok: true as const, status, headers: {}, body: Buffer.from("{}"), truncated: false };
    };
    let n = 0;
    const tokens = { get: async () => `t${(n += 1)}`, refresh: async () => `t${(n += 1)}` };
    const result = await bearerSend(send, tokens)({ body: "{}" });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(sent).toEqual([{ Authorization: "Bearer t1" }, { Authorization: "Bearer t2" }]);
    answers = [401, 401];
    const again = await bearerSend(send, tokens)({ body: "{}" });
    expect(again).toMatchObject({ ok: true, status: 401 }); // retried once, not forever
  });

  it("fails the call readably when no token can be had", async () => {
    const send = async () => ({ ok: true as const, status: 200, headers: {}, body: Buffer.from(""), truncated: false });
    const tokens = { get: async () => Promise.reject(new Error("token endpoint down")), refresh: async () => "x" };
    expect(await bearerSend(send, tokens)({ body: "{}" })).toMatchObject({
      ok: false,
      error: "could not get an OAuth access token: token endpoint down",
    });
  });
});
