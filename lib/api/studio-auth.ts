/**
 * Studio sign-in: pages and server actions call `requireStudioSession()`; only
 * a holder of the API token gets the (httpOnly, SameSite=Strict) session cookie.
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { SESSION_COOKIE, SESSION_MAX_AGE_S, issueSessionCookie, verifySessionCookie, verifyToken } from "./auth";

function tokenConfig() {
  const env = getEnv();
  return { db: getDb(env.dataDir), config: { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir } };
}

/** True when the request carries a valid Studio session. */
export async function hasStudioSession(): Promise<boolean> {
  const { db, config } = tokenConfig();
  return verifySessionCookie(db, config, (await cookies()).get(SESSION_COOKIE)?.value);
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
    path: "/",
    maxAge: SESSION_MAX_AGE_S,
  });
  return true;
}

export async function signOut(): Promise<void> {
  (await cookies()).delete(SESSION_COOKIE);
}
