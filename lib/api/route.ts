/**
 * The one wrapper every /v1 route handler goes through: authentication, the
 * error envelope, JSON parsing, and a logged cause for unknown errors.
 */
import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import { getDb, type Db } from "@/db/client";
import { getEnv, type Env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { DomainError } from "@/lib/errors";
import { errorBody, statusOf } from "./errors";
import { verifyToken } from "@/lib/services/server/api-token";
import { bearerToken } from "./auth";
import { BODY_LIMITS } from "./body-limits";
import { readJsonBody } from "./read-json-body";

export interface RouteContext<P> {
  params: P;
  db: Db;
  env: Env;
}

type Handler<P> = (req: NextRequest, ctx: RouteContext<P>) => Promise<Response>;

export interface RouteOptions {
  /** `false` only for /v1/health. */
  auth?: boolean;
  /** Replaces the error envelope (the OpenAI-compatible routes answer in OpenAI's error shape). */
  onError?: (error: unknown) => Response;
}

/** Wraps a handler: authentication, then the handler; errors become the envelope (or `onError`'s). */
export function route<P = Record<string, never>>(handler: Handler<P>, options: RouteOptions = {}) {
  return async (req: NextRequest, next: { params: Promise<P> }): Promise<Response> => {
    try {
      const env = getEnv();
      const db = getDb(env.dataDir);
      if (options.auth !== false) {
        const token = bearerToken(req.headers.get("authorization"));
        if (!verifyToken(db, { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir }, token)) {
          throw new DomainError("unauthorized", "missing or invalid bearer token");
        }
      }
      return await handler(req, { params: await next.params, db, env });
    } catch (error) {
      return (options.onError ?? errorResponse)(error);
    }
  };
}

/** Turns any thrown value into the error envelope; unknown errors are 500 with the cause logged. */
export function errorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    return NextResponse.json(errorBody(error.code, error.message, error.details), { status: statusOf(error.code) });
  }
  log.error("unhandled error in route", describeError(error));
  return NextResponse.json(errorBody("internal", "internal error"), { status: 500 });
}

/**
 * Reads a JSON body of at most `maxBytes` (streamed, cancelled at the cap: 413); 400
 * `bad_json` when it is not UTF-8 JSON or nests deeper than MAX_JSON_DEPTH.
 */
export async function readJson(req: Request, maxBytes: number = BODY_LIMITS.default): Promise<unknown> {
  return readJsonBody(req, maxBytes);
}

/** Reads and validates a JSON body with a zod schema; 422 naming each problem. */
export async function readBody<S extends z.ZodType>(req: Request, schema: S, maxBytes: number = BODY_LIMITS.default): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(req, maxBytes));
}

/** Validates a value with a zod schema; 422 naming each problem. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
  throw new DomainError("validation_failed", problems.join("; "), { issues: result.error.issues });
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return NextResponse.json(body, { status, headers });
}
