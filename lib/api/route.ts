/**
 * The one wrapper every /v1 route handler goes through: who may call it (the route's
 * declared scopes, checked against the caller's key), the error envelope, JSON parsing,
 * and a logged cause for unknown errors.
 */
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { assertScope, type Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { getEnv, type Env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { authenticateKey } from "@/lib/services/keys/api-keys";
import { bearerToken } from "./auth";
import { BODY_LIMITS } from "./body-limits";
import { errorBody, statusOf, unstorableTextError } from "./errors";
import { readJsonBody } from "./read-json-body";

export interface RouteContext<P> {
  params: P;
  db: Db;
  env: Env;
  /** The caller: the key the request carries (an anonymous principal on a public route). */
  principal: Principal;
}

type Handler<P> = (req: NextRequest, ctx: RouteContext<P>) => Promise<Response>;

export interface RouteOptions {
  /**
   * Who may call the route: a caller holding any of these scopes (an admin key always may),
   * or "public" (only /v1/health). Required, so a route cannot be added without saying.
   */
  scopes: readonly Scope[] | "public";
  /** Replaces the error envelope (the OpenAI-compatible routes answer in OpenAI's error shape). */
  onError?: (error: unknown) => Response;
}

const ANONYMOUS: Principal = {
  keyId: "anonymous",
  keyName: "anonymous",
  scopes: [],
  agents: [],
  tenant: null,
  turnsPerMinute: null,
  source: "api",
};

const UNAUTHORIZED = {
  missing: "missing bearer key: send Authorization: Bearer <key>",
  unknown: "unknown API key",
  revoked: "this API key was revoked",
  expired: "this API key has expired",
} as const;

/**
 * The principal of a request (its Authorization header) to a route that needs `scopes`: 401
 * without a valid key, 403 without the scope.
 */
export async function authorize(
  db: Db,
  authorization: string | null | undefined,
  scopes: readonly Scope[],
  what: string,
): Promise<Principal> {
  const auth = await authenticateKey(db, bearerToken(authorization ?? null), "api");
  if (!auth.ok) throw new DomainError("unauthorized", UNAUTHORIZED[auth.reason]);
  assertScope(auth.principal, scopes, what);
  return auth.principal;
}

/** Wraps a handler: authentication and the scope check, then the handler; errors become the envelope (or `onError`'s). */
export function route<P = Record<string, never>>(handler: Handler<P>, options: RouteOptions) {
  return async (req: NextRequest, next: { params: Promise<P> }): Promise<Response> => {
    try {
      const env = getEnv();
      const db = getDb(env);
      const principal =
        options.scopes === "public"
          ? ANONYMOUS
          : await authorize(
              db,
              req.headers.get("authorization"),
              options.scopes,
              `${req.method} ${req.nextUrl.pathname}`,
            );
      const params = await next.params;
      refuseNulInParams(params);
      return await handler(req, { params, db, env, principal });
    } catch (error) {
      return (options.onError ?? errorResponse)(error);
    }
  };
}

/**
 * A path segment as a route's handler gets it: a non-empty string without U+0000 (refuseNulInParams).
 * For an id or name that arrives some other way where a route takes it in its path (a Studio action's argument).
 */
export const pathSegment = z
  .string()
  .min(1)
  .refine((value) => !value.includes("\u0000"), "holds a NUL character (U+0000)");

/** A path segment holding U+0000 names nothing (and PostgreSQL cannot even look it up): 400 on every dialect alike. */
function refuseNulInParams(params: unknown): void {
  if (!params || typeof params !== "object") return;
  for (const [key, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === "string" && v.includes("\u0000")))
      throw new DomainError("bad_request", `the path's ${key} holds a NUL character (U+0000)`);
  }
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type RouteHandler = (req: NextRequest) => Promise<Response>;

/**
 * Handlers that answer 405 in the error envelope (Next's own 405 has no body) for the
 * methods a route file does not serve; the file exports the ones it lacks:
 * `export const { POST, PATCH } = refuseMethods(["GET", "PUT", "DELETE"])`.
 */
export function refuseMethods(
  served: readonly Method[],
  onError?: (error: unknown) => Response,
): Record<Method, RouteHandler> {
  const refuse =
    (method: Method): RouteHandler =>
    async () =>
      (onError ?? errorResponse)(
        new DomainError("method_not_allowed", `method ${method} is not allowed here (allowed: ${served.join(", ")})`),
      );
  return {
    GET: refuse("GET"),
    POST: refuse("POST"),
    PUT: refuse("PUT"),
    PATCH: refuse("PATCH"),
    DELETE: refuse("DELETE"),
  };
}

/** Turns any thrown value into the error envelope; unknown errors are 500 with the cause logged. */
export function errorResponse(error: unknown): Response {
  const { status, body, headers } = errorReply(error);
  return NextResponse.json(body, { status, headers });
}

/** The error envelope of any thrown value, as status, JSON body and headers (errorResponse's, or a Node route's). */
export function errorReply(error: unknown): { status: number; body: unknown; headers: Record<string, string> } {
  if (error instanceof DomainError) {
    const headers: Record<string, string> = {};
    const retry = (error.details as { retry_after_s?: unknown } | undefined)?.retry_after_s;
    if (error.code === "rate_limited" && typeof retry === "number") headers["retry-after"] = String(retry);
    return { status: statusOf(error.code), body: errorBody(error.code, error.message, error.details), headers };
  }
  const unstorable = unstorableTextError(error);
  if (unstorable) return errorReply(unstorable);
  log.error("unhandled error in route", describeError(error));
  return { status: 500, body: errorBody("internal", "internal error"), headers: {} };
}

/**
 * Reads a JSON body of at most `maxBytes` (streamed, cancelled at the cap: 413); 400
 * `bad_json` when it is not UTF-8 JSON or nests deeper than MAX_JSON_DEPTH.
 */
export async function readJson(req: Request, maxBytes: number = BODY_LIMITS.default): Promise<unknown> {
  return readJsonBody(req, maxBytes);
}

/** Reads and validates a JSON body with a zod schema; 422 naming each problem. */
export async function readBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  maxBytes: number = BODY_LIMITS.default,
): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(req, maxBytes));
}

/** Validates a value with a zod schema; 422 naming each problem. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
  throw new DomainError("validation_failed", problems.join("; "), { issues: result.error.issues });
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return NextResponse.json(body, { status, headers });
}
