/**
 * What a server start needs before it takes requests: the database migrated,
 * an API token, the demo seed in demo mode, and the config file applied.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getDb } from "@/db/client";
import { ensureBootstrapKey, tokenFile } from "@/lib/services/keys/bootstrap-key";
import type { Env } from "@/lib/env";
import { operatorPrincipal } from "@/lib/access/principal";
import { applyConfig } from "./apply-config";
import { seedDemo } from "./seed-demo";

export interface PrepareReport {
  newToken: string | null;
  tokenFile: string | null;
  seeded: string[];
  config: { file: string; agents: string[]; created: string[]; updated: string[] } | null;
}

/** The config file to apply: INSIKA_CONFIG, else ./insika.config.ts when it exists. */
export function configFilePath(env: Env): string | null {
  if (env.INSIKA_CONFIG) return path.resolve(env.INSIKA_CONFIG);
  const local = path.resolve("insika.config.ts");
  return fs.existsSync(local) ? local : null;
}

/** Loads a config file's default export (TypeScript works under tsx, which the CLI runs on). */
export async function loadConfigFile(file: string): Promise<unknown> {
  if (!fs.existsSync(file)) throw new Error(`config file not found: ${file}`);
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  // tsx may wrap an ES module's default export once more when loading it as CommonJS.
  const value = mod.default as { default?: unknown } | undefined;
  return value && typeof value === "object" && "default" in value && !Array.isArray(value) ? value.default : value;
}

/** Migrates, ensures the token, seeds (demo mode) and applies the config file. Idempotent. */
export async function prepare(env: Env, options: { configFile?: string | null } = {}): Promise<PrepareReport> {
  const db = getDb(env);
  await db.ready();
  const newToken = await ensureBootstrapKey(db, { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir });
  const seeded = env.INSIKA_DEMO ? (await seedDemo(db, env.PORT)).created : [];
  const file = options.configFile === undefined ? configFilePath(env) : options.configFile;
  let config: PrepareReport["config"] = null;
  if (file) config = { file, ...(await applyConfig(db, operatorPrincipal("config"), await loadConfigFile(file))) };
  return { newToken, tokenFile: env.INSIKA_API_TOKEN ? null : tokenFile(env.dataDir), seeded, config };
}
