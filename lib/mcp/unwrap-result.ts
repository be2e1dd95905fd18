/**
 * Turning an MCP `tools/call` result into what the model reads (DESIGN D7):
 * `structuredContent` when the server sent it, else the text content; a
 * result flagged `isError` is an error the model can read and retry against.
 */
import { isJsonText } from "@/lib/tools/is-json-text";

/** The value for the model (and the JSON text halt_when reads), or an error. */
export type UnwrappedResult = { ok: true; value: unknown; haltBody?: string } | { ok: false; error: string };

/** Content items without text are described, not forwarded: base64 data would flood the context. */
const DESCRIBED_FIELDS = ["type", "mimeType", "uri", "name", "title", "description"];

/**
 * Unwraps a `tools/call` result:
 * - `isError: true` -> `{ok:false}` with the joined text content (or a generic message);
 * - a `structuredContent` object -> that object (halt_when reads it as JSON);
 * - text content -> the text items joined with "\n" (halt_when reads the text
 *   when it is JSON, e.g. a server that returns a JSON document as text);
 * - no text at all -> a description of each item (type, mimeType, uri, name...),
 *   never its data.
 * A result that is not an object is an error. Never throws.
 */
export function unwrapResult(result: unknown): UnwrappedResult {
  if (result === null || typeof result !== "object" || Array.isArray(result)) {
    return { ok: false, error: "the MCP server answered tools/call with a result that is not an object" };
  }
  const r = result as Record<string, unknown>;
  const content = Array.isArray(r.content) ? r.content : [];
  const texts = content.flatMap((item) => (isTextItem(item) ? [item.text] : []));
  const text = texts.join("\n");

  if (r.isError === true) {
    return { ok: false, error: text.trim() !== "" ? text : "the MCP tool reported an error (no message)" };
  }
  if (r.structuredContent !== undefined && r.structuredContent !== null && typeof r.structuredContent === "object") {
    const haltBody = jsonTextOf(r.structuredContent);
    if (haltBody === undefined) {
      return { ok: false, error: "the MCP server's structuredContent is nested too deeply to be read" };
    }
    return { ok: true, value: r.structuredContent, haltBody };
  }
  if (texts.length > 0) {
    return isJsonContainerText(text) ? { ok: true, value: text, haltBody: text } : { ok: true, value: text };
  }
  return { ok: true, value: content.map(describeItem) };
}

function isTextItem(item: unknown): item is { type: "text"; text: string } {
  return (
    item !== null &&
    typeof item === "object" &&
    (item as { type?: unknown }).type === "text" &&
    typeof (item as { text?: unknown }).text === "string"
  );
}

function describeItem(item: unknown): Record<string, unknown> {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return { type: "unknown" };
  const src = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of DESCRIBED_FIELDS) {
    if (typeof src[key] === "string") out[key] = src[key];
  }
  // An embedded resource keeps its metadata under `resource`.
  const res = src.resource;
  if (res !== null && typeof res === "object" && !Array.isArray(res)) {
    const r = res as Record<string, unknown>;
    if (typeof r.uri === "string") out.uri = r.uri;
    if (typeof r.mimeType === "string") out.mimeType = r.mimeType;
    if (typeof r.text === "string") out.text = r.text;
  }
  return out;
}

/** Text that is a JSON object or array: halt_when reads it as the body; other text is read as a JSON string. */
function isJsonContainerText(text: string): boolean {
  const t = text.trim();
  return (t.startsWith("{") || t.startsWith("[")) && isJsonText(t);
}

// JSON.stringify overflows the stack on a value nested thousands of levels deep (JSON.parse
// builds one happily): undefined then, so the call fails with a reason instead of throwing.
function jsonTextOf(value: object): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
