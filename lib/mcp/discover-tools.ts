/**
 * MCP discovery (ingestion): ask an HTTP MCP server which tools it has, with
 * the official SDK client (it does the handshake and speaks every framing a
 * real server uses), every request sent through the egress guard's fetch.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { EgressBlockedError, guardedFetch, type EgressPosture, type EgressRule, type Resolver } from "@/lib/egress";
import { APP_VERSION } from "@/lib/version";
import { cappedFetch } from "./capped-fetch";
import { formatBytes, MCP_IMPORT_LIMITS } from "./import-limits";
import type { McpToolInfo } from "./to-data-tool";
import { errorMessage } from "@/lib/errors";

/** Where to discover and under which egress posture. */
export interface DiscoverToolsInput {
  /** The server's MCP endpoint (Streamable HTTP). */
  url: string;
  /**
   * Sent with every request (credentials, secrets already resolved). Every one
   * of them is treated as a secret: dropped on a cross-origin redirect.
   */
  headers: Record<string, string>;
  posture: EgressPosture;
  resolver?: Resolver;
  /** Bounds the whole discovery (handshake and every page). Default 30 s. */
  timeoutMs?: number;
  /** Stops a server that paginates forever. Default 100 pages. */
  maxPages?: number;
  /** Refuses a server listing more tools than this. Default 1000. */
  maxTools?: number;
  /** Cuts (and fails discovery on) a response larger than this, decoded. Default 4 MiB. */
  maxResponseBytes?: number;
}

/** The tools and the server's self-description, or why discovery failed. */
export type DiscoverToolsResult =
  | { ok: true; tools: McpToolInfo[]; server: { name: string; version: string } | null }
  | { ok: false; kind: "blocked"; message: string; rule: EgressRule; hint: string }
  | { ok: false; kind: "failed"; error: string }
  /** Over one of the import's bounds (too many tools, a response too large): the import is refused as a whole. */
  | { ok: false; kind: "too-large"; error: string };

/** The bounds discovery uses when the caller sets none. */
export const DISCOVERY_DEFAULTS = {
  timeoutMs: 30_000,
  maxPages: 100,
  maxTools: MCP_IMPORT_LIMITS.maxTools,
  maxResponseBytes: MCP_IMPORT_LIMITS.maxResponseBytes,
};

/**
 * Connects (initialize), lists every tool following `nextCursor` until the
 * server stops sending one, then ends the session (DELETE) and closes the
 * client, whatever happened. An egress refusal (of the first request or of
 * any redirect hop) is `kind: "blocked"` with the guard's message
 * (`destination blocked: ...`), rule and hint; more tools than `maxTools` or
 * a response over `maxResponseBytes` is `kind: "too-large"`; anything else
 * (connection refused, HTTP error, timeout, a repeated cursor, too many
 * pages) is `kind: "failed"` with a readable reason. Every header in
 * `input.headers` is dropped on a cross-origin redirect. Never throws.
 */
export async function discoverTools(input: DiscoverToolsInput): Promise<DiscoverToolsResult> {
  const timeoutMs = input.timeoutMs ?? DISCOVERY_DEFAULTS.timeoutMs;
  const maxPages = input.maxPages ?? DISCOVERY_DEFAULTS.maxPages;
  const maxTools = input.maxTools ?? DISCOVERY_DEFAULTS.maxTools;
  const maxResponseBytes = input.maxResponseBytes ?? DISCOVERY_DEFAULTS.maxResponseBytes;
  // A response over the bound aborts everything at once: the SDK would otherwise wait out its timeout.
  const overflow = new AbortController();
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), overflow.signal]);
  const tooLarge = (): DiscoverToolsResult => ({
    ok: false,
    kind: "too-large",
    error: `the MCP server sent a response larger than ${formatBytes(maxResponseBytes)} (the limit per response during an import)`,
  });
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return { ok: false, kind: "failed", error: "the MCP server URL is not a valid URL" };
  }
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: cappedFetch(
      guardedFetch(input.posture, { resolver: input.resolver, secretHeaderNames: Object.keys(input.headers) }),
      maxResponseBytes,
      () => overflow.abort(),
    ),
    requestInit: { headers: { ...input.headers } },
    // redirectPolicy stays the SDK's "same-origin": a redirect to another origin is refused, so the
    // import's headers (any may be a credential) never reach it; the guard would drop them anyway.
    // Discovery is one short exchange: a dropped stream is a failure, not something to wait out.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client(
    { name: "insika", version: APP_VERSION },
    { capabilities: {}, jsonSchemaValidator: OUTPUT_NOT_VALIDATED },
  );
  const options = { signal, timeout: timeoutMs };
  try {
    await client.connect(transport, options);
    const tools: McpToolInfo[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page >= maxPages) return failed(`the server paginated tools/list past ${maxPages} pages`);
      const listed = await client.listTools(cursor === undefined ? undefined : { cursor }, options);
      for (const t of listed.tools) tools.push(toInfo(t));
      if (tools.length > maxTools) {
        return {
          ok: false,
          kind: "too-large",
          error: `the MCP server lists more than ${maxTools} tools (the limit of one import)`,
        };
      }
      cursor = typeof listed.nextCursor === "string" && listed.nextCursor !== "" ? listed.nextCursor : undefined;
      if (cursor === undefined) break;
      if (seen.has(cursor)) return failed("the server repeated a tools/list cursor");
      seen.add(cursor);
    }
    const server = client.getServerVersion();
    return { ok: true, tools, server: server ? { name: server.name, version: server.version } : null };
  } catch (error) {
    if (overflow.signal.aborted) return tooLarge();
    const blocked = findBlocked(error);
    if (blocked)
      return { ok: false, kind: "blocked", message: blocked.message, rule: blocked.rule, hint: blocked.hint };
    return failed(describe(error, signal));
  } finally {
    // Ending the session frees it on the server; a failure here changes nothing for us.
    await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}

/**
 * The SDK client compiles every `outputSchema` a server lists (with Ajv, at once, for a later
 * `callTool` of its own). Discovery never calls a tool and stores no output schema, and compiling
 * what a hostile server sends is work it chooses: one schema of 50,000 properties (1.3 MB) blocked
 * the event loop for 9 s, and Ajv's compile time grows faster than the schema. So the client gets a
 * validator that compiles nothing, and reports any use as a refusal.
 */
const OUTPUT_NOT_VALIDATED: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: "discovery does not validate tool output (it never calls a tool)",
  }),
};

function toInfo(t: {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { title?: string; readOnlyHint?: boolean };
}): McpToolInfo {
  const info: McpToolInfo = { name: t.name };
  if (typeof t.title === "string") info.title = t.title;
  if (typeof t.description === "string") info.description = t.description;
  if (t.inputSchema !== undefined) info.inputSchema = t.inputSchema;
  if (t.annotations) {
    info.annotations = {};
    if (typeof t.annotations.title === "string") info.annotations.title = t.annotations.title;
    if (typeof t.annotations.readOnlyHint === "boolean") info.annotations.readOnlyHint = t.annotations.readOnlyHint;
  }
  return info;
}

function failed(error: string): DiscoverToolsResult {
  return { ok: false, kind: "failed", error };
}

// The SDK may rethrow the fetch error as is or wrap it; follow `cause` a few levels.
function findBlocked(error: unknown): EgressBlockedError | null {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e; depth += 1) {
    if (e instanceof EgressBlockedError) return e;
    e = e instanceof Error ? e.cause : undefined;
  }
  return null;
}

// The SDK's words for a redirect it refused (its default redirectPolicy "same-origin").
const UNFOLLOWED_REDIRECT = /Redirect to (\S+) not followed/;

function describe(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return "the MCP server did not answer in time";
  const redirect = UNFOLLOWED_REDIRECT.exec(error instanceof Error ? error.message.slice(0, 2000) : "");
  if (redirect) {
    return `the MCP server redirects to ${redirect[1]}, another origin: an import does not follow it, so its headers never leave the origin they were given for (import that URL directly if you trust it)`;
  }
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e; depth += 1) {
    const msg = errorMessage(e);
    const code = (e as { code?: unknown }).code;
    const text = typeof code === "string" && !msg.includes(code) ? `${msg} (${code})` : msg;
    if (text && !parts.includes(text)) parts.push(text);
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(": ").slice(0, 500) || "unknown error";
}
