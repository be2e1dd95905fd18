/**
 * This process's OAuth tokens for ingested MCP servers, one token holder per set of client
 * credentials (server, client id, secret, scope), in memory only: a restart fetches new
 * ones, nothing is ever written. Kept on globalThis (one cache per process, whichever route
 * bundle asks). Token requests go through the egress guard like every other request, bounded
 * in size and time.
 */
import crypto from "node:crypto";
import type { EgressPosture } from "@/lib/egress";
import { ClientCredentialsTokens, type ClientCredentials } from "@/lib/mcp/client-credentials-tokens";
import { oauthFetch } from "@/lib/mcp/oauth-fetch";

const KEY = Symbol.for("insika.mcp.oauthTokens");
/** Held token holders at most (an old one is dropped first; it only costs a new token request). */
export const MAX_TOKEN_HOLDERS = 1000;

type Holder = { [KEY]?: Map<string, ClientCredentialsTokens> };

/** The token holder of these credentials under this posture (created on first use). */
export function oauthTokensFor(creds: ClientCredentials, posture: EgressPosture): ClientCredentialsTokens {
  const holder = globalThis as Holder;
  const cache = (holder[KEY] ??= new Map());
  const key = crypto
    .createHash("sha256")
    .update(JSON.stringify([creds.serverUrl, creds.clientId, creds.clientSecret, creds.scope ?? ""]))
    .digest("base64url");
  let tokens = cache.get(key);
  if (!tokens) {
    // The token endpoint gets the client secret (Basic) and answers a token: both masked as secret headers;
    // every answer is capped and every request has a deadline (see oauthFetch).
    tokens = new ClientCredentialsTokens(creds, oauthFetch(posture));
    if (cache.size >= MAX_TOKEN_HOLDERS) cache.delete(cache.keys().next().value as string);
    cache.set(key, tokens);
  }
  return tokens;
}
