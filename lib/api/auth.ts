/**
 * API authentication (API.md "Auth"): one bearer token. It is INSIKA_API_TOKEN
 * when set; otherwise the first start generates one and stores only its hash.
 * The Studio's session cookie is `<expiry>.<session id>.<hmac>`, keyed by a key derived
 * from the session key file (never stored in insika.db: a copy of the database cannot forge
 * a session) and the token's hash (rotating the token signs every session out). Sign-out
 * revokes the session id server-side, so a copied cookie stops working too.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { API_TOKEN_HASH_KEY, getSetting, setSetting } from "@/db/queries/settings";
import { isStudioSessionRevoked, revokeStudioSession } from "@/db/queries/studio-session-revocations";
import { getSessionKey } from "./session-key";

export const SESSION_COOKIE = "insika_session";
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

export interface TokenConfig {
  envToken?: string;
  dataDir: string;
}

function expectedHash(db: Db, config: TokenConfig): string | undefined {
  return config.envToken ? sha256(config.envToken) : getSetting(db, API_TOKEN_HASH_KEY);
}

/** Constant-time check of a presented token. */
export function verifyToken(db: Db, config: TokenConfig, presented: string | null | undefined): boolean {
  if (!presented) return false;
  const want = expectedHash(db, config);
  if (!want) return false;
  const got = sha256(presented);
  return crypto.timingSafeEqual(Buffer.from(got), Buffer.from(want));
}

/** The token from an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | null): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

export function tokenFile(dataDir: string): string {
  return path.join(dataDir, "api-token");
}

/**
 * Makes sure a token exists. Returns the new token when this call generated it
 * (the caller prints it once), else null.
 */
export function ensureApiToken(db: Db, config: TokenConfig): string | null {
  if (config.envToken || getSetting(db, API_TOKEN_HASH_KEY)) return null;
  return rotateApiToken(db, config);
}

/** Generates a new token, stores its hash and writes it to `<data dir>/api-token` (0600). */
export function rotateApiToken(db: Db, config: TokenConfig): string {
  if (config.envToken) throw new Error("INSIKA_API_TOKEN is set: rotate it where it is provisioned");
  const token = `insk_${crypto.randomBytes(24).toString("base64url")}`;
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = tokenFile(config.dataDir);
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  setSetting(db, API_TOKEN_HASH_KEY, sha256(token));
  return token;
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
