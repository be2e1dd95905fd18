/**
 * Errors of the OpenAI-compatible routes, in OpenAI's shape
 * `{"error":{"message","type","param","code"}}`, so the official clients raise their usual
 * typed errors (NotFoundError, BadRequestError, AuthenticationError...). Types by status:
 * invalid_request_error (400, 404, 409, 413; our 422 answers as 400 because OpenAI's clients
 * treat 422 as a different class of problem), authentication_error (401), permission_error
 * (403), server_error (5xx); a key over its turns-per-minute limit is 429 with OpenAI's own
 * request-limit shape (type "requests", code "rate_limit_exceeded") and Retry-After.
 */
import { statusOf, unstorableTextError } from "@/lib/api/errors";
import type { TurnFault } from "@/lib/engine/turn-failure";
import { DomainError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";

export type OpenAIErrorType =
  "invalid_request_error" | "authentication_error" | "permission_error" | "requests" | "server_error";

/** An error answered with exactly this status, type and code (and optional headers). */
export class OpenAICompatError extends Error {
  constructor(
    readonly status: number,
    readonly type: OpenAIErrorType,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "OpenAICompatError";
  }
}

export const invalidRequest = (message: string, code = "invalid_request", param: string | null = null) =>
  new OpenAICompatError(400, "invalid_request_error", code, message, param);

/**
 * 400 `nul_character` for a value holding U+0000, refused before anything is read or written:
 * PostgreSQL can neither store nor look up such text, and a request here may start a session
 * before its turn is written (docs/decisions.md, "U+0000 in text"). Both dialects alike.
 */
export function refuseNul(value: string | null | undefined, what: string, param: string | null): void {
  if (value?.includes("\u0000")) throw invalidRequest(`${what} holds a NUL character (U+0000)`, "nul_character", param);
}

export const notFoundError = (message: string, code: string, param: string | null = null) =>
  new OpenAICompatError(404, "invalid_request_error", code, message, param);

export const permissionError = (message: string, code: string, param: string | null = null) =>
  new OpenAICompatError(403, "permission_error", code, message, param);

/**
 * A failed turn answered without streaming: 502 when the model provider (the upstream) is at
 * fault, else 500; the message is the turn's error, as the trace shows it.
 */
export function turnFailedError(
  failure: { error?: string; fault?: TurnFault },
  headers: Record<string, string> = {},
): OpenAICompatError {
  const status = failure.fault === "model" ? 502 : 500;
  return new OpenAICompatError(
    status,
    "server_error",
    "turn_failed",
    failure.error ?? "the turn failed",
    null,
    headers,
  );
}

/** The body of an error in OpenAI's shape. */
export function openAIErrorBody(type: OpenAIErrorType, code: string, message: string, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** How an error of the standard envelope (DomainError) reads in OpenAI's terms. */
function fromDomainError(error: DomainError): { status: number; type: OpenAIErrorType } {
  const status = statusOf(error.code);
  if (error.code === "unauthorized") return { status: 401, type: "authentication_error" };
  if (error.code === "forbidden") return { status: 403, type: "permission_error" };
  if (error.code === "rate_limited") return { status: 429, type: "requests" };
  if (status === 422) return { status: 400, type: "invalid_request_error" };
  if (status >= 500) return { status, type: "server_error" };
  return { status, type: "invalid_request_error" };
}

/**
 * Any thrown value as an OpenAI-shaped error response; text the database cannot store is 400
 * as on the main API; unknown errors are 500 with the cause logged.
 */
export function openAIErrorResponse(error: unknown): Response {
  if (error instanceof OpenAICompatError) {
    return Response.json(openAIErrorBody(error.type, error.code, error.message, error.param), {
      status: error.status,
      headers: error.headers,
    });
  }
  if (error instanceof DomainError) {
    const { status, type } = fromDomainError(error);
    if (error.code === "rate_limited") {
      const retry = (error.details as { retry_after_s?: unknown } | undefined)?.retry_after_s;
      const headers: Record<string, string> = typeof retry === "number" ? { "retry-after": String(retry) } : {};
      return Response.json(openAIErrorBody(type, "rate_limit_exceeded", error.message), { status, headers });
    }
    return Response.json(openAIErrorBody(type, error.code, error.message), { status });
  }
  const unstorable = unstorableTextError(error);
  if (unstorable) return openAIErrorResponse(unstorable);
  log.error("unhandled error in an OpenAI-compatible route", describeError(error));
  return Response.json(openAIErrorBody("server_error", "internal", "internal error"), { status: 500 });
}
