/**
 * The call record: what the trace keeps of one tool call (API.md, "trace" call
 * shape), plus the helpers that make it safe to keep: masking secret headers,
 * clipping the result, and redacting secret values from the whole record.
 */
import { jsonNestingDepth } from "@/lib/engine/json-nesting-depth";
import { REDACTED, redactText, redactValue } from "@/lib/secrets/redact";

/** The request as the trace shows it; secret header values are `[secret]`. */
export interface RecordedRequest {
  method: string;
  /** The final URL (after redirects), secret values masked, no fragment. */
  url: string;
  headers: Record<string, string>;
  /** For an MCP call: the JSON-RPC message posted (the `tools/call`). */
  body?: string;
}

/** The egress guard's word on the call: why it was allowed, or which rule refused it. */
export interface RecordedEgress {
  verdict: "allowed" | "blocked";
  /** `public`, `allowlisted`, `allow-private`, or the refusing rule (`private-address`, ...). */
  rule: string;
  /** For a refusal: the setting that would widen it. null when allowed. */
  hint: string | null;
}

/** One redirect that was followed: the URL that answered and its status. */
export interface RecordedRedirect {
  url: string;
  status: number | null;
}

/** One tool call in the trace. Contains no secret value (see finalizeRecord). */
export interface CallRecord {
  call_id: string;
  tool: string;
  kind: "data" | "mcp" | "code";
  /** The arguments exactly as the model sent them. */
  arguments: unknown;
  /** null when no request was built (bad arguments, a missing secret...). */
  request: RecordedRequest | null;
  /** The last HTTP status received; null when nothing was sent or nothing answered. */
  status: number | null;
  ok: boolean;
  duration_ms: number;
  /** What the model was given (JSON text), clipped to MAX_RECORD_RESULT_CHARS. */
  result: string | null;
  /** Set when `result` was clipped. */
  result_truncated?: true;
  error?: string;
  egress?: RecordedEgress;
  halted?: boolean;
  halt_reason?: string;
  /** The hops before the final one, when the call followed redirects. */
  redirects?: RecordedRedirect[];
}

/** Results longer than this (in UTF-16 code units) are clipped in the record. */
export const MAX_RECORD_RESULT_CHARS = 8 * 1024;

/**
 * Clips `text` to at most `max` code units without splitting a surrogate pair.
 * Returns the text and whether anything was cut.
 */
export function clipText(text: string, max = MAX_RECORD_RESULT_CHARS): { text: string; clipped: boolean } {
  if (text.length <= max) return { text, clipped: false };
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), clipped: true };
}

/**
 * A copy of `headers` for the trace: the value of every header named in
 * `secretHeaders` (any case) becomes `[secret]`, whatever else it holds,
 * since `Bearer <token>` is a secret as a whole.
 */
export function maskHeaders(
  headers: Readonly<Record<string, string>>,
  secretHeaders: readonly string[],
): Record<string, string> {
  // Spread defines own data properties, it never assigns: `__proto__` stays a plain key.
  const out: Record<string, string> = { ...headers };
  if (secretHeaders.length === 0) return out;
  const secret = new Set(secretHeaders.map((h) => h.toLowerCase()));
  for (const name of Object.keys(out)) {
    // An own data property by now, so assigning it runs no setter.
    if (secret.has(name.toLowerCase())) out[name] = REDACTED;
  }
  return out;
}

/** A URL with every secret value (and its URL/base64 encodings) masked. */
export function maskUrl(url: string, secretValues: readonly string[]): string {
  return redactText(url, secretValues);
}

/**
 * Makes a record safe to keep: sets `result` (clipped) from the model
 * content, then redacts every secret value, in any string of the record, keys
 * included. Call it last, on the complete record.
 */
export function finalizeRecord(
  record: CallRecord,
  content: string | null,
  secretValues: readonly string[],
): CallRecord {
  const out: CallRecord = { ...record };
  delete out.result_truncated;
  if (content === null) {
    out.result = null;
  } else {
    // Redact before clipping, so a cut can never leave half a secret behind.
    const clipped = clipText(redactContent(content, secretValues));
    out.result = clipped.text;
    if (clipped.clipped) out.result_truncated = true;
  }
  return redactValue(out, [...secretValues]);
}

/**
 * JSON nested deeper than this is not searched for escaped secrets: the search writes the
 * parsed value out again, and JSON.stringify overflows the stack thousands of levels down. A
 * call that read secrets gets WITHHELD_TOO_DEEP instead of such a body (execute-data-tool
 * fails the call with it).
 */
export const MAX_REDACTED_DEPTH = 256;
export const TOO_DEEP_TO_REDACT = `the response is nested more than ${MAX_REDACTED_DEPTH} levels deep, too deep to search for secrets, so it was withheld`;
export const WITHHELD_TOO_DEEP = JSON.stringify({ error: TOO_DEEP_TO_REDACT });

/**
 * Redacts secret values from model-bound JSON text. The text forms go first
 * (keeping the text as received); then the parsed value is checked, which
 * catches a secret a backend wrote with JSON escapes (`\u0073ecret`, `\/`),
 * and only then is the text re-serialized from the redacted value.
 */
export function redactContent(content: string, secretValues: readonly string[]): string {
  if (secretValues.length === 0) return content;
  const forms = secretValues.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);
  const out = redactText(content, forms);
  let parsed: unknown;
  try {
    parsed = JSON.parse(out);
  } catch {
    return out;
  }
  if (jsonNestingDepth(out) > MAX_REDACTED_DEPTH) return WITHHELD_TOO_DEEP;
  const before = JSON.stringify(parsed);
  const redacted = redactValue(parsed, [...secretValues]);
  const after = JSON.stringify(redacted);
  return after === before ? out : after;
}
