/**
 * API authentication (API.md "Auth"): the bearer token (stored by
 * lib/services/server/api-token.ts) and the Studio's session cookie.
 * The Studio's session cookie is `<expiry>.<session id>.<hmac>`, keyed by a key derived
 * from the session key file (never stored in insika.db: a copy of the database cannot forge
 * a session) and the token's hash (rotating the token signs every session out). Sign-out
 * revokes the session id server-side, so a copied cookie stops working too.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/client";
import { expectedHash, type TokenConfig } from "@/lib/services/server/api-token";
import { isStudioSessionRevoked, revokeStudioSession } from "@/db/queries/studio-session-revocations";
import { getSessionKey } from "./session-key";

export const SESSION_COOKIE = "insika_session";
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** The token from an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

const COOKIE_FORMAT = /^(\d{1,15})\.([0-9a-f]{32})\.([0-9a-f]{64})$/;

/** A Studio session cookie value: `<expiry>.<session id>.<hmac>`. */
export function issueSessionCookie(db: Db, config: TokenConfig, now = Date.now()): string {
  const key = cookieKey(db, config);
  if (!key) throw new Error("no API token is configured");
  const expires = now + SESSION_TTL_MS;
  const sessionId = crypto.randomBytes(16).toString("hex");
  return `${expires}.${sessionId}.${hmac(key, `${expires}.${sessionId}`)}`;
}

/** The cookie's session id and expiry when it is well signed and unexpired (revocation not checked). */
function readSessionCookie(db: Db, config: TokenConfig, cookie: string | undefined, now: number) {
  const match = COOKIE_FORMAT.exec(cookie ?? "");
  if (!match) return undefined;
  const key = cookieKey(db, config);
  const [, expires = "0", sessionId = "", mac = ""] = match;
  if (!key || Number(expires) < now) return undefined;
  if (!crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(hmac(key, `${expires}.${sessionId}`)))) return undefined;
  return { sessionId, expires: Number(expires) };
}

/** True when the cookie was issued under the current token and key, has not expired and was not signed out. */
export function verifySessionCookie(db: Db, config: TokenConfig, cookie: string | undefined, now = Date.now()): boolean {
  const session = readSessionCookie(db, config, cookie, now);
  return session !== undefined && !isStudioSessionRevoked(db, session.sessionId);
}

/** Signs a session out server-side: its cookie (and every copy of it) stops working. */
export function revokeSessionCookie(db: Db, config: TokenConfig, cookie: string | undefined, now = Date.now()): void {
  const session = readSessionCookie(db, config, cookie, now);
  if (session) revokeStudioSession(db, session.sessionId, session.expires, now);
}

export const SESSION_MAX_AGE_S = SESSION_TTL_MS / 1000;

/** The HMAC key of session cookies: the key file's secret bound to the current token's hash. */
function cookieKey(db: Db, config: TokenConfig): Buffer | undefined {
  const tokenHash = expectedHash(db, config);
  if (!tokenHash) return undefined;
  return crypto.createHmac("sha256", getSessionKey(config.dataDir)).update(`insika-studio-cookie-key:${tokenHash}`).digest();
}

function hmac(key: Buffer, data: string): string {
  return crypto.createHmac("sha256", key).update(`insika-studio:${data}`).digest("hex");
}
