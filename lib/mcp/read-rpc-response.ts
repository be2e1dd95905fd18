/**
 * Reading the answer to one JSON-RPC request posted to a Streamable HTTP MCP
 * server. Real servers answer a single call either as plain JSON or as an SSE
 * stream that may carry progress notifications (and requests of their own)
 * before the response; only the message whose `id` matches is the answer.
 */
import { parseSse } from "./sse-events";

/** A JSON-RPC response as MCP servers send it (result or error, never both). */
export interface RpcResponse {
  id: string | number | null;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** The response to `id`, or why none could be read. */
export type ReadRpcResult = { ok: true; message: RpcResponse } | { ok: false; error: string };

/**
 * Splits an SSE body into the `data` of each event, in order (multi-line data
 * joined with "\n", one leading space after `data:` dropped, comments and other
 * fields ignored). Events whose data is empty are skipped: servers send them
 * to prime a stream or to carry only an event id. Never throws.
 */
export function parseSseData(text: string): string[] {
  return parseSse(text).events.map((e) => e.data);
}

/**
 * Finds the response to request `id` in an HTTP body. `contentType` decides
 * the framing: `text/event-stream` is read as SSE (each event's data is a
 * JSON-RPC message or a batch); anything else as one JSON value (a message or
 * a batch). Notifications, server requests and responses to other ids are
 * ignored. Never throws.
 */
export function readRpcResponse(body: string, contentType: string | undefined, id: string | number): ReadRpcResult {
  const isSse = (contentType ?? "").toLowerCase().includes("text/event-stream");
  const chunks = isSse ? parseSseData(body) : body.trim() === "" ? [] : [body];
  let unparsable = 0;
  for (const chunk of chunks) {
    let value: unknown;
    try {
      value = JSON.parse(chunk);
    } catch {
      unparsable += 1;
      continue;
    }
    const found = (Array.isArray(value) ? value : [value]).find((m) => isResponseTo(m, id));
    if (found) return { ok: true, message: found as RpcResponse };
  }
  if (chunks.length === 0) return { ok: false, error: "the MCP server sent an empty response" };
  if (unparsable === chunks.length)
    return { ok: false, error: `the MCP server sent a response that is not JSON${isSse ? " (SSE data)" : ""}` };
  return { ok: false, error: `the MCP server's response holds no answer to request ${JSON.stringify(id)}` };
}

/** Whether `m` is the JSON-RPC response (result or error) to request `id`. */
export function isResponseTo(m: unknown, id: string | number): boolean {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return false;
  const msg = m as Record<string, unknown>;
  if (msg.id !== id || "method" in msg) return false;
  return "result" in msg || (typeof msg.error === "object" && msg.error !== null);
}

/** A JSON-RPC error as one readable line: `MCP error -32602: Invalid params`. */
export function describeRpcError(error: RpcResponse["error"]): string {
  const code = typeof error?.code === "number" ? ` ${error.code}` : "";
  const message = typeof error?.message === "string" && error.message.trim() !== "" ? error.message : "unknown error";
  return `MCP error${code}: ${message}`;
}
