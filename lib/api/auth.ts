/**
 * Authentication at the edge: the bearer key of an API request, and the Studio's session
 * cookie. A cookie is `<expiry>.<session id>.<key id>.<hmac>`: it names the key that signed
 * in and is signed with a key derived from the session key file (never stored in insika.db,
 * so a copy of the database cannot forge a session) and that key's hash (rotating or
 * revoking the key ends its sessions). Every request reads the key again, so a Studio session
 * has exactly the key's scopes, now. Sign-out revokes the session id server-side.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/client";
import { isStudioSessionRevoked, revokeStudioSession } from "@/db/queries/studio-session-revocations";
import type { Principal } from "@/lib/access/principal";
import { activeKey, principalOf } from "@/lib/services/keys/api-keys";
import { getSessionKey } from "./session-key";

export const SESSION_COOKIE = "insika_session";
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const SESSION_MAX_AGE_S = SESSION_TTL_MS / 1000;

/** The token from an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

const COOKIE_FORMAT = /^(\d{1,15})\.([0-9a-f]{32})\.([A-Za-z0-9_-]{1,80})\.([0-9a-f]{64})$/;

/** A Studio session cookie for a signed-in key. */
export async function issueSessionCookie(db: Db, dataDir: string, keyId: string, now = Date.now()): Promise<string> {
  const key = await activeKey(db, keyId, now);
  if (!key) throw new Error(`key '${keyId}' is not active`);
  const expires = now + SESSION_TTL_MS;
  const sessionId = crypto.randomBytes(16).toString("hex");
  const signed = `${expires}.${sessionId}.${keyId}`;
  return `${signed}.${hmac(cookieKey(dataDir, key.hash), signed)}`;
}

/** The cookie's session id, key and expiry when it is well signed, unexpired and its key active (revocation not checked). */
async function readSessionCookie(db: Db, dataDir: string, cookie: string | undefined, now: number) {
  const match = COOKIE_FORMAT.exec(cookie ?? "");
  if (!match) return undefined;
  const [, expires = "0", sessionId = "", keyId = "", mac = ""] = match;
  if (Number(expires) < now) return undefined;
  const key = await activeKey(db, keyId, now);
  if (!key) return undefined;
  const want = hmac(cookieKey(dataDir, key.hash), `${expires}.${sessionId}.${keyId}`);
  if (!crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(want))) return undefined;
  return { sessionId, expires: Number(expires), key };
}

/** The principal of a valid, unexpired, not signed-out Studio session; undefined otherwise. */
export async function sessionPrincipal(
  db: Db,
  dataDir: string,
  cookie: string | undefined,
  now = Date.now(),
): Promise<Principal | undefined> {
  const session = await readSessionCookie(db, dataDir, cookie, now);
  if (!session || (await isStudioSessionRevoked(db, session.sessionId))) return undefined;
  return principalOf(session.key, "studio");
}

/** Signs a session out server-side: its cookie (and every copy of it) stops working. */
export async function revokeSessionCookie(
  db: Db,
  dataDir: string,
  cookie: string | undefined,
  now = Date.now(),
): Promise<void> {
  const session = await readSessionCookie(db, dataDir, cookie, now);
  if (session) await revokeStudioSession(db, session.sessionId, session.expires, now);
}

/** The HMAC key of session cookies: the key file's secret bound to the signed-in key's hash. */
function cookieKey(dataDir: string, keyHash: string): Buffer {
  return crypto.createHmac("sha256", getSessionKey(dataDir)).update(`insika-studio-cookie-key:${keyHash}`).digest();
}

function hmac(key: Buffer, data: string): string {
  return crypto.createHmac("sha256", key).update(`insika-studio:${data}`).digest("hex");
}
