/**
 * Studio sign-in: any active API key signs in, and the Studio then acts with that key's
 * scopes (read again on every request). Pages and server actions call
 * `requireStudioSession()` and check scopes with `assertScope`; the cookie is httpOnly,
 * SameSite=Strict, and Secure over https. Sign-out revokes the session server-side.
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import type { Principal } from "@/lib/access/principal";
import { getEnv } from "@/lib/env";
import { authenticateKey } from "@/lib/services/keys/api-keys";
import { SESSION_COOKIE, SESSION_MAX_AGE_S, issueSessionCookie, revokeSessionCookie, sessionPrincipal } from "./auth";
import { isHttpsRequest } from "./request-origin";

function studioContext() {
  const env = getEnv();
  return { db: getDb(env), dataDir: env.dataDir };
}

/** True when this cookie value is a valid Studio session (the proxy checks it before Next reads cookies()). */
export async function isStudioSessionCookie(cookie: string | undefined): Promise<boolean> {
  const { db, dataDir } = studioContext();
  return (await sessionPrincipal(db, dataDir, cookie)) !== undefined;
}

/** The principal of this request's Studio session, if it has a valid one. */
export async function studioPrincipal(): Promise<Principal | undefined> {
  const { db, dataDir } = studioContext();
  return sessionPrincipal(db, dataDir, (await cookies()).get(SESSION_COOKIE)?.value);
}

/** True when the request carries a valid Studio session. */
export async function hasStudioSession(): Promise<boolean> {
  return (await studioPrincipal()) !== undefined;
}

/** The session's principal; redirects to /login when there is none. */
export async function requireStudioSession(): Promise<Principal> {
  const principal = await studioPrincipal();
  if (!principal) redirect("/login");
  return principal;
}

/** Checks the key and sets the session cookie; false when the key is unknown, revoked or expired. */
export async function signIn(token: string): Promise<boolean> {
  const { db, dataDir } = studioContext();
  const auth = await authenticateKey(db, token.trim(), "studio");
  if (!auth.ok) return false;
  (await cookies()).set(SESSION_COOKIE, await issueSessionCookie(db, dataDir, auth.principal.keyId), {
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
  const { db, dataDir } = studioContext();
  const jar = await cookies();
  await revokeSessionCookie(db, dataDir, jar.get(SESSION_COOKIE)?.value);
  jar.delete(SESSION_COOKIE);
}
