/**
 * The seam for MCP tools (`request.protocol: "mcp"`, DESIGN D7). The JSON-RPC
 * envelope, the session handshake and result unwrapping belong to lib/mcp;
 * this side keeps what every tool call shares: arguments are validated and
 * the request (URL, headers, secrets) is built before the MCP layer runs, and
 * the MCP layer can only send through `send`, which goes through the egress
 * guard with the call's deadline and records each exchange. It never sees a
 * secret value or the egress posture.
 */
import { createHash } from "node:crypto";
import type { HaltVerdict } from "@/lib/engine/ports";
import { evaluateHalt } from "@/lib/tools/halt";
import type { DataToolDefinition, TurnContext } from "@/lib/tools/types";
import type { BuiltRequest } from "./build-request";
import { defineOwn } from "./template-scope";
import { sendBuiltRequest, type Exchange, type SendContext } from "./send-built-request";
import { errorMessage } from "@/lib/errors";

/**
 * One JSON-RPC message to post to the tool's URL, plus protocol headers
 * (Accept, Mcp-Session-Id...); or, with `method: "GET"` and no body, the
 * request that resumes an SSE stream (Last-Event-ID) on the same URL.
 */
export interface McpMessage {
  /** Default POST. */
  method?: "POST" | "GET";
  /** The JSON-RPC message; required for POST, absent for GET. */
  body?: string;
  headers?: Record<string, string>;
  /** Sees each decoded body chunk; true ends the read there (a stream that stays open after the answer). */
  stopReading?: (chunk: Buffer, headers: Readonly<Record<string, string>>) => boolean;
  /**
   * Headers the MCP layer authenticates with (an OAuth access token): sent unless the
   * definition sets the same header, masked in the record and dropped on a cross-origin
   * redirect, like a secret header.
   */
  credentials?: Record<string, string>;
}

/** The response to one message; `error` is model-readable (`destination blocked: ...` for a refusal). */
export type McpSendResult =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer; truncated: boolean }
  | { ok: false; error: string; blocked: boolean; status: number | null };

/** Posts one message to the tool's server (POST, built URL and headers). Never throws. */
export type McpSend = (message: McpMessage) => Promise<McpSendResult>;

/**
 * What an MCP call produced: the unwrapped result value (shown to the model
 * as JSON) or an error. `haltBody` is the JSON text halt_when should read
 * (default: the value serialized).
 */
export type McpCallOutcome = { ok: true; value: unknown; haltBody?: string } | { ok: false; error: string };

// McpCallInfo (the 5th McpCaller argument) exists because the MCP session
// cache is keyed by server and credentials, which only this side can see.
/** What the MCP layer may know about the built request without seeing a secret. */
export interface McpCallInfo {
  /** SHA-256 of the built URL and headers (secrets resolved): one key per server and credentials. */
  sessionKey: string;
  // Resuming a stream waits the server's retry interval: within the call's deadline.
  /** Milliseconds left before the call's deadline (the tool's timeout). */
  remainingMs: () => number;
  /** The call's cancellation, for waits between sends. */
  signal?: AbortSignal;
}

/** The injectable MCP implementation: called with validated arguments and a guarded `send`. */
export type McpCaller = (
  tool: DataToolDefinition,
  args: Record<string, unknown>,
  ctx: TurnContext,
  send: McpSend,
  info: McpCallInfo,
) => Promise<McpCallOutcome>;

export interface ExecuteMcpToolOptions {
  mcp: McpCaller | undefined;
  /** The tool's request as built (URL, headers with secrets resolved). */
  built: BuiltRequest;
  secretHeaders: readonly string[];
  sendCtx: SendContext;
  /** Told about every exchange, so the record shows the last one. */
  onExchange: (exchange: Exchange) => void;
}

type Outcome = { ok: true; content: string; halt?: HaltVerdict } | { ok: false; content: string; error: string };

/**
 * Runs an MCP tool call through `options.mcp`; without one the call fails with
 * `MCP calls are not available` and nothing is sent. halt_when is evaluated on
 * a successful result only. Never throws.
 */
export async function executeMcpTool(
  tool: DataToolDefinition,
  args: Record<string, unknown>,
  ctx: TurnContext,
  options: ExecuteMcpToolOptions,
): Promise<Outcome> {
  if (!options.mcp) return failure("MCP calls are not available");
  const secret = new Set(options.secretHeaders.map((h) => h.toLowerCase()));

  const send: McpSend = async (message) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(options.built.headers)) defineOwn(headers, name, value);
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      // Protocol headers may replace the definition's, except a secret one:
      // the MCP layer must not be able to read or re-point a credential.
      if (secret.has(name.toLowerCase())) continue;
      for (const existing of Object.keys(headers)) {
        if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
      }
      defineOwn(headers, name, value);
    }
    const credentialNames: string[] = [];
    for (const [name, value] of Object.entries(message.credentials ?? {})) {
      if (Object.keys(headers).some((existing) => existing.toLowerCase() === name.toLowerCase())) continue;
      defineOwn(headers, name, value);
      credentialNames.push(name);
    }
    const method = message.method ?? "POST";
    const request: BuiltRequest = {
      method,
      url: options.built.url,
      target: options.built.target,
      headers,
      body: method === "GET" ? undefined : message.body,
    };
    const exchange = await sendBuiltRequest(request, [...options.secretHeaders, ...credentialNames], options.sendCtx, {
      stopReading: message.stopReading,
    });
    // The trace shows the JSON-RPC message (redacted with the whole record).
    if (request.body !== undefined) exchange.request.body = request.body;
    options.onExchange(exchange);
    const r = exchange.result;
    if (r.ok) return { ok: true, status: r.status, headers: r.headers, body: r.body, truncated: r.truncated };
    return { ok: false, error: exchange.error ?? r.error, blocked: r.kind === "blocked", status: exchange.status };
  };

  let outcome: McpCallOutcome;
  try {
    outcome = await options.mcp(tool, args, ctx, send, {
      sessionKey: sessionKeyOf(options.built),
      remainingMs: () => options.sendCtx.deadline - performance.now(),
      signal: options.sendCtx.signal,
    });
  } catch (e) {
    return failure(`MCP call failed: ${errorMessage(e)}`);
  }
  if (!outcome || typeof outcome !== "object") return failure("MCP call returned no outcome");
  if (!outcome.ok)
    return failure(typeof outcome.error === "string" && outcome.error !== "" ? outcome.error : "MCP call failed");
  let content: string;
  try {
    content = JSON.stringify(outcome.value) ?? "null";
  } catch {
    return failure("MCP call returned a result that is not JSON");
  }
  if (!tool.halt_when) return { ok: true, content };
  // The MCP result arrived over a 2xx (errors are ok:false above), so 200 stands in for the status.
  const verdict = evaluateHalt(tool.halt_when, 200, outcome.haltBody ?? content);
  return verdict.halt
    ? { ok: true, content, halt: { say: verdict.say, reason: verdict.reason } }
    : { ok: true, content };
}

// Header names lower-cased and sorted, so spelling and order do not split sessions.
function sessionKeyOf(built: BuiltRequest): string {
  const hash = createHash("sha256").update(built.url);
  const headers = Object.entries(built.headers).map(([n, v]) => [n.toLowerCase(), v] as const);
  headers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of headers) hash.update(`\n${name}:${value}`);
  return hash.digest("hex");
}

function failure(error: string): Outcome {
  return { ok: false, content: JSON.stringify({ error }), error };
}
