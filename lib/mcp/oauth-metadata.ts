/**
 * OAuth metadata discovery for a protected MCP server (MCP authorization, RFC 9728 and
 * RFC 8414): the server's 401 names its protected resource metadata (`WWW-Authenticate:
 * Bearer resource_metadata="..."`), else the well-known URLs are tried (path-aware first);
 * the resource metadata names the authorization server, whose metadata (OAuth, then OpenID
 * Connect; path-aware first) gives the token endpoint. Every request goes through the
 * `send` given (the egress guard's fetch). A server without resource metadata falls back to
 * authorization server metadata at its own origin (the 2025-03-26 arrangement).
 */
import { EgressBlockedError, type FetchLike } from "@/lib/egress";

export interface TokenEndpoint {
  tokenEndpoint: string;
  issuer: string;
  /** `token_endpoint_auth_methods_supported`; empty when the metadata did not say. */
  authMethods: string[];
  /** The protected resource's identifier (sent as `resource`, RFC 8707). */
  resource: string;
}

/** The `resource_metadata` URL of a `WWW-Authenticate: Bearer ...` header, if any. */
export function resourceMetadataUrl(wwwAuthenticate: string | null): string | undefined {
  if (!wwwAuthenticate) return undefined;
  const match = /resource_metadata\s*=\s*(?:"([^"]*)"|([^\s,]+))/i.exec(wwwAuthenticate);
  return match?.[1] ?? match?.[2] ?? undefined;
}

/** Well-known URLs for `suffix` (`oauth-protected-resource`...) of `url`: path-aware, then at the root. */
export function wellKnownUrls(url: string, suffix: string): string[] {
  const u = new URL(url);
  const path = u.pathname.replace(/\/+$/, "");
  const root = `${u.origin}/.well-known/${suffix}`;
  return path && path !== "/" ? [`${root}${path}`, root] : [root];
}

/** Authorization server metadata URLs of an issuer (RFC 8414 and OIDC, path-aware first). */
export function authServerMetadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/+$/, "");
  if (!path || path === "/") {
    return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  }
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}/.well-known/openid-configuration${path}`,
    `${u.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Finds the token endpoint of the server at `serverUrl`: asks the server (an unauthenticated
 * `initialize`, whose 401 names the resource metadata), then the metadata documents. Throws
 * an Error naming what is missing.
 */
export async function discoverTokenEndpoint(serverUrl: string, send: FetchLike): Promise<TokenEndpoint> {
  const probe = await send(serverUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "insika", version: "1" } },
    }),
  });
  await probe.body?.cancel().catch(() => undefined);
  const named = probe.status === 401 ? resourceMetadataUrl(probe.headers.get("www-authenticate")) : undefined;
  const candidates = named ? [named] : wellKnownUrls(serverUrl, "oauth-protected-resource");
  const prm = await firstJson(candidates, send);
  let issuer: string;
  let resource = serverUrl;
  if (prm) {
    const servers = prm.body.authorization_servers;
    if (!Array.isArray(servers) || typeof servers[0] !== "string") {
      throw new Error(`the protected resource metadata at ${prm.url} names no authorization_servers`);
    }
    issuer = servers[0];
    if (typeof prm.body.resource === "string") resource = prm.body.resource;
  } else {
    issuer = new URL(serverUrl).origin; // 2025-03-26: the server's origin is the authorization server
  }
  const as = await firstJson(authServerMetadataUrls(issuer), send);
  if (!as)
    throw new Error(
      `no authorization server metadata for ${issuer} (tried ${authServerMetadataUrls(issuer).join(", ")})`,
    );
  const endpoint = as.body.token_endpoint;
  if (typeof endpoint !== "string" || endpoint === "")
    throw new Error(`the authorization server metadata at ${as.url} has no token_endpoint`);
  const methods = as.body.token_endpoint_auth_methods_supported;
  return {
    tokenEndpoint: new URL(endpoint, as.url).href,
    issuer: typeof as.body.issuer === "string" ? as.body.issuer : issuer,
    authMethods: Array.isArray(methods) ? methods.filter((m): m is string => typeof m === "string") : [],
    resource,
  };
}

async function firstJson(
  urls: string[],
  send: FetchLike,
): Promise<{ url: string; body: Record<string, unknown> } | undefined> {
  for (const url of urls) {
    let res: Response;
    try {
      res = await send(url, { headers: { accept: "application/json" } });
    } catch (error) {
      // A refusal of the egress guard is the answer, not a reason to try the next URL.
      if (error instanceof EgressBlockedError) throw error;
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      continue;
    }
    try {
      const body = (await res.json()) as unknown;
      if (body && typeof body === "object" && !Array.isArray(body))
        return { url, body: body as Record<string, unknown> };
    } catch {
      // not JSON: try the next
    }
  }
  return undefined;
}
