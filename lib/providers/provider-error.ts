/**
 * What a failed provider call becomes: a ProviderError whose message is safe to show (secret
 * values and their encodings scrubbed, the provider's own words cut to a short excerpt).
 */
import { STATUS_CODES } from "node:http";
import { APICallError } from "ai";
import { redactText } from "@/lib/secrets/redact";

/** A provider call failed; `message` is safe to show (secret values are scrubbed). */
export class ProviderError extends Error {
  /** HTTP status the provider answered with, when there was one. */
  readonly status: number | undefined;
  /**
   * Set when the cause is the model's configuration, not the provider (a secret not
   * provisioned, an endpoint the egress posture refuses): the turn fails with this code.
   */
  readonly failureCode: "provider_secret_missing" | "provider_blocked" | undefined;
  constructor(message: string, status?: number, failureCode?: "provider_secret_missing" | "provider_blocked") {
    super(message);
    this.name = "ProviderError";
    this.status = status;
    this.failureCode = failureCode;
  }
}

/** Longest error message a provider failure becomes (it reaches traces and API clients). */
const MAX_ERROR_CHARS = 400;
/** Longest excerpt of a provider's own words (its error message or response body) in that message. */
export const MAX_EXCERPT_CHARS = 200;

/**
 * Any failure of a provider call -> a ProviderError with a clear, secret-free message. What the
 * provider said (its error message, else its response body) appears only as an excerpt of at most
 * MAX_EXCERPT_CHARS, redacted (the key and its encodings) *before* it is cut, so a key at the cut
 * cannot leave half of itself behind.
 */
export function toProviderError(error: unknown, signal: AbortSignal, secrets: string[]): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof ProviderError)
    return new ProviderError(scrub(error.message, secrets), error.status, error.failureCode);
  // The SDK may wrap what the provider fetch threw (a refused endpoint): its code is kept.
  const cause = (error as { cause?: unknown } | null)?.cause;
  const code = cause instanceof ProviderError ? cause.failureCode : undefined;
  if (APICallError.isInstance(error)) {
    // The answer came (a status) and the provider fetch then failed its body (the stream cap):
    // that message says what happened, the SDK's "Failed to process successful response" does not.
    if (error.statusCode !== undefined && cause instanceof ProviderError) {
      return new ProviderError(scrub(cause.message, secrets), error.statusCode, cause.failureCode);
    }
    const status = error.statusCode;
    if (status === undefined) {
      return new ProviderError(
        scrub(`provider error: ${excerpt(error.message, secrets)} (${error.url})`, secrets),
        undefined,
        code,
      );
    }
    const statusLine = `${status} ${STATUS_CODES[status] ?? ""}`.trim();
    let detail = error.message;
    if (detail === "" || detail === STATUS_CODES[status] || detail === statusLine) detail = error.responseBody ?? "";
    const short = excerpt(detail, secrets);
    const text = short ? `provider error: ${statusLine}: ${short}` : `provider error: ${statusLine}`;
    return new ProviderError(scrub(text, secrets), status);
  }
  return new ProviderError(scrub(`provider error: ${excerpt(describe(error), secrets)}`, secrets), undefined, code);
}

// Redacted, whitespace collapsed, then cut: the provider's words as one short line.
function excerpt(text: string, secrets: string[]): string {
  const clean = redactText(text, secrets).replace(/\s+/g, " ").trim();
  return clean.length > MAX_EXCERPT_CHARS ? `${clean.slice(0, MAX_EXCERPT_CHARS)}…` : clean;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  if (error !== null && typeof error === "object") {
    // Stream error events carry the provider's error object, e.g. {type, message}.
    const record = error as Record<string, unknown>;
    const inner =
      record.error !== null && typeof record.error === "object" ? (record.error as Record<string, unknown>) : record;
    const message = typeof inner.message === "string" ? inner.message : undefined;
    const type = typeof inner.type === "string" ? inner.type : undefined;
    if (message || type) return [type, message].filter(Boolean).join(": ");
    try {
      return JSON.stringify(error);
    } catch {
      return "unknown error";
    }
  }
  return String(error);
}

function scrub(text: string, secrets: string[]): string {
  const result = redactText(text, secrets);
  return result.length > MAX_ERROR_CHARS ? `${result.slice(0, MAX_ERROR_CHARS)}…` : result;
}
