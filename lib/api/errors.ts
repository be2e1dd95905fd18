/**
 * The error envelope of the HTTP edge: `{ "error": { code, message, details? } }`,
 * and the one table that maps a code to its HTTP status (DESIGN §3.4).
 */
export const ERROR_STATUS = {
  bad_json: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  egress_blocked: 422,
  internal: 500,
  upstream_failed: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error meant for the client: its message is shown as is. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string) => new ApiError("not_found", `${what} not found`);
export const validationFailed = (message: string, details?: unknown) =>
  new ApiError("validation_failed", message, details);

/** The JSON body of an error response. */
export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}
