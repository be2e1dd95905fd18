/**
 * The API token (API.md "Auth"): INSIKA_API_TOKEN when set; otherwise the first start
 * generates one, stores only its hash and writes the value to `<data dir>/api-token` (0600)
 * for local scripts.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { API_TOKEN_HASH_KEY, getSetting, setSetting } from "@/db/queries/settings";
import { DomainError } from "@/lib/errors";

export const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

export interface TokenConfig {
  envToken?: string;
  dataDir: string;
}

export function expectedHash(db: Db, config: TokenConfig): string | undefined {
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
  if (config.envToken) throw new DomainError("conflict", "INSIKA_API_TOKEN is set: rotate it where it is provisioned");
  const token = `insk_${crypto.randomBytes(24).toString("base64url")}`;
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = tokenFile(config.dataDir);
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  setSetting(db, API_TOKEN_HASH_KEY, sha256(token));
  return token;
}
