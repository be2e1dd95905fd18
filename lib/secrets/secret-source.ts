/**
 * Where secret values come from (DESIGN D3). A stored row only ever holds
 * `{{secret.NAME}}`; the value is read here at call time: env
 * `INSIKA_SECRET_<NAME upper-cased>`, else the file `NAME` in INSIKA_SECRETS_DIR.
 */
import fs from "node:fs";
import path from "node:path";
import { getEnv, readRawEnv } from "@/lib/env";

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface SecretSource {
  read(name: string): string | undefined;
}

/** The provisioned secret source of this process. */
export const processSecrets: SecretSource = {
  read(name) {
    if (!SECRET_NAME.test(name)) return undefined;
    const fromEnv = readRawEnv(`INSIKA_SECRET_${name.toUpperCase()}`);
    if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
    const dir = getEnv().INSIKA_SECRETS_DIR;
    if (!dir) return undefined;
    try {
      // Trailing newlines are an artifact of `echo x > file`, not part of the secret.
      const value = fs.readFileSync(path.join(dir, name), "utf8").replace(/[\r\n]+$/, "");
      return value === "" ? undefined : value;
    } catch {
      return undefined;
    }
  },
};

/** A fixed map, for tests. */
export function staticSecrets(values: Record<string, string>): SecretSource {
  const map = new Map(Object.entries(values));
  return { read: (name) => map.get(name) };
}
