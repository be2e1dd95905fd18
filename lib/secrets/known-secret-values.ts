/**
 * Every secret value this process holds: data-tool and provider secrets from the environment
 * and INSIKA_SECRETS_DIR, and the bootstrap API token. For a sink that takes text which
 * should hold none (the OpenTelemetry export) to mask them once more by value.
 */
import fs from "node:fs";
import path from "node:path";
import { getEnv, rawEnvSnapshot } from "@/lib/env";
import { DATA_SECRET_PREFIX, PROVIDER_SECRET_PREFIX, PROVIDER_SECRETS_SUBDIR } from "./secret-source";

export function knownSecretValues(): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(rawEnvSnapshot())) {
    if (!value) continue;
    if (name.startsWith(DATA_SECRET_PREFIX) || name.startsWith(PROVIDER_SECRET_PREFIX) || name === "INSIKA_API_TOKEN")
      values.add(value);
  }
  const dir = getEnv().INSIKA_SECRETS_DIR;
  if (dir) for (const folder of [dir, path.join(dir, PROVIDER_SECRETS_SUBDIR)]) readFolder(folder, values);
  return [...values];
}

function readFolder(folder: string, into: Set<string>): void {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      const file = path.join(folder, name);
      if (!fs.statSync(file).isFile()) continue;
      const value = fs.readFileSync(file, "utf8").replace(/[\r\n]+$/, "");
      if (value !== "") into.add(value);
    } catch {
      // unreadable: it cannot be sent either
    }
  }
}
