/**
 * The one error type services throw (DESIGN §3.4): a stable code that says what went wrong
 * and who is at fault, a message meant for whoever made the request, and optional details.
 * Services know nothing of HTTP; the edge (lib/api/errors.ts) maps each code to a status.
 */
export type ErrorCode =
  | "bad_json"
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "unsupported_media_type"
  | "validation_failed"
  | "egress_blocked"
  | "internal"
  | "upstream_failed";

/** An error meant for the caller: its message is shown as is. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);
export const validationFailed = (message: string, details?: unknown) =>
  new DomainError("validation_failed", message, details);
export const conflict = (message: string, details?: unknown) => new DomainError("conflict", message, details);

/** The message of anything thrown (an Error's message, else its string form). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
