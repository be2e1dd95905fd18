/**
 * Shapes an HTTP response into what the model reads (DESIGN D2). Everything
 * comes out as JSON text; the choice of `response.extract` changes what is
 * shown, never whether the call succeeded.
 */
import { parseJsonPath, readJsonPath, type ParseJsonPathResult } from "@/lib/tools/json-path";
import type { ToolResponse } from "@/lib/tools/types";
import { deepFreeze, rememberTemplate } from "./template-scope";

/** A response as received (body already decoded and capped). */
export interface ReceivedResponse {
  status: number;
  body: Buffer;
  /** The body was cut at the cap (1 MiB decoded). */
  truncated: boolean;
}

/** `content` is JSON text in both cases; on failure it is an `{"error": ...}` object. */
export type ExtractedResult = { ok: true; content: string } | { ok: false; content: string; error: string };

/** Error bodies up to this size (bytes) are shown parsed, when they are JSON. */
export const ERROR_BODY_JSON_MAX_BYTES = 2 * 1024;
/** Larger (or non-JSON) error bodies are shown as their first this-many characters. */
export const ERROR_BODY_PREVIEW_CHARS = 200;

/** A body read as text: UTF-8, a leading byte-order mark removed. */
export function bodyText(body: Buffer): string {
  const text = body.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The body as JSON when it parses as JSON, whatever its Content-Type says (the
 * same test halt_when applies, so the two never disagree about a body).
 */
export function parseJsonBody(text: string): { json: true; value: unknown } | { json: false } {
  if (text.trim() === "") return { json: false };
  try {
    return { json: true, value: JSON.parse(text) };
  } catch {
    return { json: false };
  }
}

/**
 * Shapes a response for the model:
 * - non-2xx: error `{"error":"HTTP 404","status":404,"body":...}` where body is
 *   the parsed JSON when the body is JSON and at most 2 KiB, else its first
 *   200 characters (left out when the body is empty);
 * - a body cut at the cap: error (a truncated document would be read as whole);
 * - `status`: `{"status":N}`;
 * - `body_raw`: a JSON body as received (it already is JSON text), else the
 *   text as a JSON string; an empty body is `null`;
 * - `json_path`: the value at `path`, or `null` when the path is not in the
 *   body (absence is an answer the model can use, the call itself worked); a
 *   body that is not JSON is an error, since no path can be read from it.
 * Never throws.
 */
export function extractResult(response: ToolResponse, received: ReceivedResponse): ExtractedResult {
  const { status } = received;
  if (status < 200 || status > 299) return httpError(received);
  if (received.truncated) {
    return failure("the response body is larger than 1 MiB (cut off)", { status });
  }
  if (response.extract === "status") return { ok: true, content: JSON.stringify({ status }) };

  const text = bodyText(received.body);
  const parsed = parseJsonBody(text);
  if (response.extract === "json_path") {
    if (text.trim() === "") return { ok: true, content: "null" };
    if (!parsed.json) {
      return failure(`the response is not JSON, so ${response.path} cannot be read`, {
        status,
        body: preview(text),
      });
    }
    const hit = readPath(parsed.value, response.path);
    const content = toJsonText(hit.found ? hit.value : null);
    if (content === undefined)
      return failure(`the value at ${response.path} is nested too deeply to be read`, { status });
    return { ok: true, content };
  }
  // The text as received, not a re-serialization: JSON.parse would round
  // integers beyond 2^53 (ids!) and the model must see what the backend said.
  if (parsed.json) return { ok: true, content: text.trim() };
  return { ok: true, content: text === "" ? "null" : JSON.stringify(text) };
}

function httpError(received: ReceivedResponse): ExtractedResult {
  const text = bodyText(received.body);
  const extra: Record<string, unknown> = { status: received.status };
  if (text !== "") {
    const parsed =
      received.body.length <= ERROR_BODY_JSON_MAX_BYTES && !received.truncated
        ? parseJsonBody(text)
        : { json: false as const };
    extra.body = parsed.json ? parsed.value : preview(text);
  }
  return failure(`HTTP ${received.status}`, extra);
}

function failure(error: string, extra: Record<string, unknown>): ExtractedResult {
  return { ok: false, error, content: JSON.stringify({ error, ...extra }) };
}

// The first N characters, counted in code points so a pair is never split.
function preview(text: string): string {
  let out = "";
  let n = 0;
  for (const ch of text) {
    if (n === ERROR_BODY_PREVIEW_CHARS) break;
    out += ch;
    n += 1;
  }
  return out;
}

// JSON text of a value read from a parsed body; undefined when it cannot be written: JSON.parse
// builds values nested thousands of levels deep, and JSON.stringify overflows the stack on them.
function toJsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return undefined;
  }
}

// Parsed `response.path`s by their text (frozen, shared between calls; bounded):
// a tool's path is the same on every call, and parsing it is a visible share of one.
const PATHS = new Map<string, ParseJsonPathResult>();

// readJsonPath(value, path), with the path parsed once per distinct text.
function readPath(value: unknown, path: string): ReturnType<typeof readJsonPath> {
  if (typeof path !== "string") return readJsonPath(value, path);
  let parsed = PATHS.get(path);
  if (parsed === undefined) {
    parsed = deepFreeze(parseJsonPath(path));
    rememberTemplate(PATHS, path, parsed);
  }
  return parsed.ok ? readJsonPath(value, parsed.steps) : { found: false };
}
