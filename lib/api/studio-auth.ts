/**
 * Studio sign-in: pages and server actions call `requireStudioSession()`; only
 * a holder of the API token gets the (httpOnly, SameSite=Strict, Secure over https)
 * session cookie. Sign-out revokes the session server-side.
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { verifyToken } from "@/lib/services/server/api-token";
import { SESSION_COOKIE, SESSION_MAX_AGE_S, issueSessionCookie, revokeSessionCookie, verifySessionCookie } from "./auth";
import { isHttpsRequest } from "./request-origin";

function tokenConfig() {
  const env = getEnv();
  return { db: getDb(env.dataDir), config: { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir } };
}

/** True when this cookie value is a valid Studio session (the proxy checks it before Next reads cookies()). */
export function isStudioSessionCookie(cookie: string | undefined): boolean {
  const { db, config } = tokenConfig();
  return verifySessionCookie(db, config, cookie);
}

/** True when the request carries a valid Studio session. */
export async function hasStudioSession(): Promise<boolean> {
  return isStudioSessionCookie((await cookies()).get(SESSION_COOKIE)?.value);
}

/** Redirects to /login unless the request carries a valid Studio session. */
export async function requireStudioSession(): Promise<void> {
  if (!(await hasStudioSession())) redirect("/login");
}

/** Checks the token and sets the session cookie; false when the token is wrong. */
export async function signIn(token: string): Promise<boolean> {
  const { db, config } = tokenConfig();
  if (!verifyToken(db, config, token.trim())) return false;
  (await cookies()).set(SESSION_COOKIE, issueSessionCookie(db, config), {
    httpOnly: true,
    sameSite: "strict",
    secure: isHttpsRequest(await headers()),
    path: "/",
    maxAge: SESSION_MAX_AGE_S,
  });
  return true;
}

/** Revokes this browser's session server-side, then drops its cookie. */
export async function signOut(): Promise<void> {
  const { db, config } = tokenConfig();
  const jar = await cookies();
  revokeSessionCookie(db, config, jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
}
