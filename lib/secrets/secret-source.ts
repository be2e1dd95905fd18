/**
 * Where secret values come from (DESIGN D3). A stored row only ever holds
 * `{{secret.NAME}}` (or, for a model, `api_key_secret: NAME`); the value is read
 * here at call time. Two separate namespaces, so a secret can only be sent
 * where it is meant to go:
 *
 *   data tools and MCP imports   env INSIKA_SECRET_<NAME>,          else file <INSIKA_SECRETS_DIR>/<name>
 *   model providers (API keys)   env INSIKA_PROVIDER_SECRET_<NAME>, else file <INSIKA_SECRETS_DIR>/providers/<name>
 *
 * (NAME upper-cased.) A data tool's `{{secret.x}}` cannot read a provider key and an
 * agent's `api_key_secret` cannot name a data-tool secret: each source reads its own only.
 */
import fs from "node:fs";
import path from "node:path";
import { getEnv, readRawEnv } from "@/lib/env";

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Env prefix of data-tool secrets. */
export const DATA_SECRET_PREFIX = "INSIKA_SECRET_";
/** Env prefix of model provider secrets (API keys). */
export const PROVIDER_SECRET_PREFIX = "INSIKA_PROVIDER_SECRET_";
/** Subdirectory of INSIKA_SECRETS_DIR holding provider secret files. */
export const PROVIDER_SECRETS_SUBDIR = "providers";

export interface SecretSource {
  read(name: string): string | undefined;
}

function secretSource(envPrefix: string, subdir: string | null): SecretSource {
  return {
    read(name) {
      if (!SECRET_NAME.test(name)) return undefined;
      const fromEnv = readRawEnv(`${envPrefix}${name.toUpperCase()}`);
      if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
      const dir = getEnv().INSIKA_SECRETS_DIR;
      if (!dir) return undefined;
      try {
        // Trailing newlines are an artifact of `echo x > file`, not part of the secret.
        const file = subdir === null ? path.join(dir, name) : path.join(dir, subdir, name);
        const value = fs.readFileSync(file, "utf8").replace(/[\r\n]+$/, "");
        return value === "" ? undefined : value;
      } catch {
        return undefined;
      }
    },
  };
}

/** Data-tool (and MCP import) secrets of this process. */
export const processSecrets: SecretSource = secretSource(DATA_SECRET_PREFIX, null);

/** Model provider secrets (api_key_secret) of this process; never readable by a data tool. */
export const providerSecrets: SecretSource = secretSource(PROVIDER_SECRET_PREFIX, PROVIDER_SECRETS_SUBDIR);

/** A fixed map, for tests. */
export function staticSecrets(values: Record<string, string>): SecretSource {
  const map = new Map(Object.entries(values));
  return { read: (name) => map.get(name) };
}
