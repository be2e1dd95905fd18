/**
 * The bootstrap key: the admin key an installation starts with, so that existing
 * installations keep working. It is INSIKA_API_TOKEN when set; otherwise the first start
 * generates one, prints it once and writes it to `<data dir>/api-token` (0600) for local
 * scripts. `insika token --rotate` replaces it. It is an ordinary key row (id key_bootstrap):
 * listed, audited, and revocable like any other.
 */
import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/db/database";
import { getApiKey, insertApiKey, rehashApiKey } from "@/db/queries/api-keys";
import { API_TOKEN_HASH_KEY, getSetting } from "@/db/queries/settings";
import { DomainError } from "@/lib/errors";
import { displayPrefix, newKeyValue, sha256 } from "./api-keys";

export const BOOTSTRAP_KEY_ID = "key_bootstrap";

export interface TokenConfig {
  envToken?: string;
  dataDir: string;
}

export function tokenFile(dataDir: string): string {
  return path.join(dataDir, "api-token");
}

async function storeBootstrap(db: Db, hash: string, prefix: string, name: string, now: number): Promise<void> {
  if (await getApiKey(db, BOOTSTRAP_KEY_ID)) await rehashApiKey(db, BOOTSTRAP_KEY_ID, hash, prefix);
  else
    await insertApiKey(db, {
      id: BOOTSTRAP_KEY_ID,
      name,
      hash,
      prefix,
      scopes: ["admin"],
      agents: null,
      tenant: null,
      turnsPerMinute: null,
      expiresAt: null,
      createdAt: now,
    });
}

/**
 * Makes sure the bootstrap key exists and matches INSIKA_API_TOKEN when that is set. Returns
 * the new value when this call generated one (the caller prints it once), else null.
 */
export async function ensureBootstrapKey(db: Db, config: TokenConfig, now = Date.now()): Promise<string | null> {
  const existing = await getApiKey(db, BOOTSTRAP_KEY_ID);
  if (config.envToken) {
    const hash = sha256(config.envToken);
    // Only a new value re-arms the key: the same token after an operator revoked it stays revoked.
    if (existing?.hash !== hash)
      await storeBootstrap(db, hash, displayPrefix(config.envToken), "bootstrap (INSIKA_API_TOKEN)", now);
    return null;
  }
  if (existing) return null;
  // An installation from before keys existed: its token's hash becomes the bootstrap key.
  const legacy = await getSetting(db, API_TOKEN_HASH_KEY);
  if (legacy) {
    await storeBootstrap(db, legacy, "insk_…", "bootstrap (api-token)", now);
    return null;
  }
  return rotateBootstrapKey(db, config, now);
}

/** Generates a new bootstrap value, stores its hash and writes it to `<data dir>/api-token` (0600). */
export async function rotateBootstrapKey(db: Db, config: TokenConfig, now = Date.now()): Promise<string> {
  if (config.envToken) throw new DomainError("conflict", "INSIKA_API_TOKEN is set: rotate it where it is provisioned");
  const value = newKeyValue();
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = tokenFile(config.dataDir);
  fs.writeFileSync(file, `${value}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  await storeBootstrap(db, sha256(value), displayPrefix(value), "bootstrap (api-token)", now);
  return value;
}
