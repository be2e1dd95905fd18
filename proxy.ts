// Runs before Next routes a request: refuses a path Next cannot percent-decode (Next would
// throw while matching a dynamic segment and answer a bare 500), and sends a browser
// without a Studio session to /login before any Studio page (or its RSC payload) renders.
import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE } from "@/lib/api/auth";
import { errorBody } from "@/lib/api/errors";
import { isStudioSessionCookie } from "@/lib/api/studio-auth";

// Routes with their own authentication, sign-in itself, and the build's static files.
const NOT_STUDIO_PAGES = [
  "/v1/",
  "/studio-api/",
  "/demo-backend/",
  "/metrics",
  "/login",
  "/_next/",
  "/monaco/",
  "/favicon.ico",
];

/** True when every segment of the raw path percent-decodes to valid UTF-8. */
export function isDecodablePath(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

export async function proxy(req: NextRequest): Promise<Response> {
  const { pathname } = req.nextUrl;
  if (!isDecodablePath(pathname)) {
    return NextResponse.json(errorBody("bad_request", "the URL path has a malformed percent-encoding"), {
      status: 400,
    });
  }
  const page =
    (req.method === "GET" || req.method === "HEAD") &&
    !NOT_STUDIO_PAGES.some((p) => pathname === p.replace(/\/$/, "") || pathname.startsWith(p));
  if (page && !(await isStudioSessionCookie(req.cookies.get(SESSION_COOKIE)?.value))) {
    return NextResponse.redirect(new URL("/login", req.url), 307);
  }
  return NextResponse.next();
}

// Two matchers, because Next buffers (up to 10 MB) the body of every request a proxy runs
// for: the /v1, studio-api and demo-backend routes stream and cap their own bodies, so the
// proxy sees them only when the raw path holds a percent sign (to refuse a bad encoding).
export const config = {
  matcher: ["/((?!v1/|studio-api/|demo-backend/|_next/static/|monaco/).*)", "/(v1|studio-api|demo-backend)/(.*%.*)"],
};
