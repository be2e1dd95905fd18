/**
 * OAuth 2.1 client credentials for a protected MCP server: the token request
 * (`grant_type=client_credentials`, client_secret_basic unless the server only offers
 * client_secret_post, `resource` per RFC 8707) and the tokens themselves, kept in memory
 * only — never written to the database, a file or a trace — and fetched again when they
 * expire or when the server answers 401 (`refresh`).
 */
import type { FetchLike } from "@/lib/egress";
import { discoverTokenEndpoint, type TokenEndpoint } from "./oauth-metadata";

export interface ClientCredentials {
  /** The MCP server (the protected resource). */
  serverUrl: string;
  clientId: string;
  /** The resolved secret value (from `{{secret.*}}`); only ever sent to the token endpoint. */
  clientSecret: string;
  scope?: string;
}

/** A token expiring within this much of now is fetched again before use. */
export const EXPIRY_MARGIN_MS = 30_000;
/** Without `expires_in`, a token is trusted this long (then fetched again; a 401 refreshes earlier). */
export const DEFAULT_TOKEN_LIFETIME_MS = 5 * 60_000;
/**
 * The most one token fetch may take, discovery and token request together. Each request
 * has its own deadline (oauthFetch), but discovery may try up to six metadata URLs, and a
 * failed token request discovers again: without this, a server that answers each just
 * before its deadline held every caller for over a minute.
 */
export const TOKEN_FLOW_TIMEOUT_MS = 20_000;

interface Token {
  accessToken: string;
  expiresAt: number;
}

/** Asks the token endpoint for a token. Throws an Error with the server's `error` (never the secret). */
export async function requestClientCredentialsToken(
  endpoint: TokenEndpoint,
  creds: ClientCredentials,
  send: FetchLike,
  now = Date.now(),
): Promise<Token> {
  const form = new URLSearchParams({ grant_type: "client_credentials" });
  if (creds.scope) form.set("scope", creds.scope);
  form.set("resource", endpoint.resource);
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  const basic = endpoint.authMethods.length === 0 || endpoint.authMethods.includes("client_secret_basic");
  if (basic) {
    const id = encodeURIComponent(creds.clientId);
    const secret = encodeURIComponent(creds.clientSecret);
    headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
  } else if (endpoint.authMethods.includes("client_secret_post")) {
    form.set("client_id", creds.clientId);
    form.set("client_secret", creds.clientSecret);
  } else {
    throw new Error(
      `the authorization server supports none of client_secret_basic, client_secret_post (it offers ${endpoint.authMethods.join(", ")})`,
    );
  }
  const res = await send(endpoint.tokenEndpoint, { method: "POST", headers, body: form.toString() });
  let body: Record<string, unknown> = {};
  try {
    const parsed = (await res.json()) as unknown;
    // `null`, a list or a scalar holds no token either: described below like any answer without one.
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch (error) {
    // Not JSON is described below; a body that could not be read (too large, too late) says so itself.
    if (!(error instanceof SyntaxError)) throw error;
  }
  if (!res.ok || typeof body.access_token !== "string" || body.access_token === "") {
    const why =
      typeof body.error === "string"
        ? `${body.error}${typeof body.error_description === "string" ? `: ${body.error_description}` : ""}`
        : "no access_token";
    throw new Error(
      `the token endpoint ${endpoint.tokenEndpoint} refused the client credentials (HTTP ${res.status}: ${why})`,
    );
  }
  if (typeof body.token_type === "string" && body.token_type.toLowerCase() !== "bearer") {
    throw new Error(`the token endpoint issued a '${body.token_type}' token; only bearer tokens are supported`);
  }
  const lifetime =
    typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in * 1000 : DEFAULT_TOKEN_LIFETIME_MS;
  return { accessToken: body.access_token, expiresAt: now + lifetime };
}

/**
 * The tokens of one set of client credentials: `get` answers a cached token while it is
 * valid, `refresh` fetches a new one (after a 401). Concurrent callers share one request.
 * The token endpoint is discovered on first use and again when a token request fails.
 */
export class ClientCredentialsTokens {
  private token: Token | undefined;
  private endpoint: TokenEndpoint | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(
    private readonly creds: ClientCredentials,
    private readonly send: FetchLike,
    private readonly now: () => number = Date.now,
    private readonly flowTimeoutMs = TOKEN_FLOW_TIMEOUT_MS,
  ) {}

  /** A valid access token (fetched when there is none or it is about to expire). */
  async get(): Promise<string> {
    if (this.token && this.token.expiresAt - EXPIRY_MARGIN_MS > this.now()) return this.token.accessToken;
    return this.refresh();
  }

  /** Forgets the current token and fetches a new one. */
  refresh(): Promise<string> {
    this.token = undefined;
    this.inFlight ??= this.fetchToken().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /** The discovered token endpoint (for messages), once known. */
  get tokenEndpoint(): string | undefined {
    return this.endpoint?.tokenEndpoint;
  }

  /** Discovery (when needed) and the token request, all under one deadline (flowTimeoutMs). */
  private async fetchToken(): Promise<string> {
    const deadline = AbortSignal.timeout(this.flowTimeoutMs);
    const send: FetchLike = (input, init = {}) =>
      this.send(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
    try {
      return await this.fetchTokenWith(send);
    } catch (error) {
      if (!deadline.aborted) throw error;
      throw new Error(
        `the OAuth flow for ${this.creds.serverUrl} did not finish within ${this.flowTimeoutMs} ms (metadata discovery and token request together)`,
        { cause: error },
      );
    }
  }

  private async fetchTokenWith(send: FetchLike): Promise<string> {
    const known = this.endpoint;
    this.endpoint ??= await discoverTokenEndpoint(this.creds.serverUrl, send);
    try {
      this.token = await requestClientCredentialsToken(this.endpoint, this.creds, send, this.now());
    } catch (error) {
      if (!known) throw error;
      // The endpoint may have moved since it was discovered: discover once more.
      this.endpoint = await discoverTokenEndpoint(this.creds.serverUrl, send);
      this.token = await requestClientCredentialsToken(this.endpoint, this.creds, send, this.now());
    }
    return this.token.accessToken;
  }
}
