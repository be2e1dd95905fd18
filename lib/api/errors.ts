/**
 * The error envelope of the HTTP edge: `{ "error": { code, message, details? } }`, and the
 * one table that maps a domain error code (lib/errors.ts) to its HTTP status (DESIGN §3.4).
 */
import { isUnstorableText } from "@/db/database-errors";
import { DomainError, type ErrorCode } from "@/lib/errors";

export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_json: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unsupported_media_type: 415,
  validation_failed: 422,
  egress_blocked: 422,
  internal: 500,
  upstream_failed: 502,
};

/** The HTTP status of a domain error code. */
export const statusOf = (code: ErrorCode): number => ERROR_STATUS[code];

/** The JSON body of an error response. */
export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/**
 * The error to answer for a statement that failed on text the database cannot store
 * (PostgreSQL and U+0000, isUnstorableText): the input's problem, 400 `bad_request`, in
 * either envelope. undefined for any other error.
 */
export function unstorableTextError(error: unknown): DomainError | undefined {
  if (!isUnstorableText(error)) return undefined;
  return new DomainError("bad_request", "the request holds text the database cannot store (a NUL character, U+0000)");
}
