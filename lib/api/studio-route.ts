/**
 * The wrapper of the cookie-authenticated Studio routes (app/studio-api/**): the browser's
 * Origin must be this host (403; a write must carry one), the Studio session must be valid
 * (401) and its key hold one of the route's scopes (403, as on /v1), a write must be
 * `Content-Type: application/json` (415: a cross-site form cannot send that without a
 * preflight we never grant). Errors are the envelope.
 */
import type { NextRequest } from "next/server";
import { getDb, type Db } from "@/db/client";
import { assertScope, type Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { getEnv, type Env } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { isSameOrigin } from "./request-origin";
import { errorResponse } from "./route";
import { studioPrincipal } from "./studio-auth";

export interface StudioRouteContext<P> {
  params: P;
  db: Db;
  env: Env;
  /** The key the Studio session signed in with (its scopes read again on this request). */
  principal: Principal;
}

type Handler<P> = (req: NextRequest, ctx: StudioRouteContext<P>) => Promise<Response>;

const READ_METHODS = new Set(["GET", "HEAD"]);

/** True when a Content-Type header names JSON (`application/json`, parameters allowed). */
export function isJsonContentType(header: string | null): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

export interface StudioRouteOptions {
  /** Who may call the route: a session whose key holds one of these (admin always may). Required, as on route(). */
  scopes: readonly Scope[];
}

export function studioRoute<P = Record<string, never>>(handler: Handler<P>, options: StudioRouteOptions) {
  return async (req: NextRequest, next: { params: Promise<P> }): Promise<Response> => {
    try {
      const write = !READ_METHODS.has(req.method);
      if (!isSameOrigin(req.headers, !write))
        throw new DomainError("forbidden", "cross-origin request refused: Origin must be this host");
      const principal = await studioPrincipal();
      if (!principal) throw new DomainError("unauthorized", "sign in to the Studio first");
      assertScope(principal, options.scopes, `${req.method} ${req.nextUrl.pathname}`);
      if (write && !isJsonContentType(req.headers.get("content-type"))) {
        throw new DomainError("unsupported_media_type", "Content-Type must be application/json");
      }
      const env = getEnv();
      return await handler(req, { params: await next.params, db: getDb(env), env, principal });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
