/**
 * The process environment, parsed once (DESIGN §3.12). Nothing else reads
 * `process.env` directly: modules receive the values they need from here.
 */
import path from "node:path";
import { z } from "zod";
import { parseProviderPosture } from "@/lib/egress/posture";

const flag = z
  .string()
  .optional()
  .transform((v) => (v === undefined ? false : /^(1|true|yes|on)$/i.test(v.trim())));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  INSIKA_DATA_DIR: z.string().min(1).default("./data"),
  INSIKA_API_TOKEN: z.string().min(16, "INSIKA_API_TOKEN must be at least 16 characters").optional(),
  INSIKA_SECRETS_DIR: z.string().min(1).optional(),
  INSIKA_EGRESS_HOSTS: z.string().optional(),
  INSIKA_EGRESS_ALLOW_HTTP: z.string().optional(),
  INSIKA_EGRESS_ALLOW_PRIVATE: z.string().optional(),
  /**
   * Model provider hosts beyond public https (same syntax as INSIKA_EGRESS_HOSTS): a listed
   * host may be private or loopback, plain http, any port. Checked by parseProviderPosture
   * here, so a bad entry fails the environment with the entry named.
   */
  INSIKA_PROVIDER_HOSTS: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseProviderPosture(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  INSIKA_APPROVAL_TTL: z.coerce.number().positive().default(3600),
  /** Resume turns a dead process left running when the server starts (default on; 0/false/no/off = only on request). */
  INSIKA_RESUME_ON_START: z
    .string()
    .optional()
    .transform((v) => v === undefined || !/^(0|false|no|off)$/i.test(v.trim())),
  INSIKA_CONFIG: z.string().optional(),
  INSIKA_DEMO: flag,
  /** Test-only: where provider "scripted" reads `<model>.json` scripts. Unset = scripted refused. */
  INSIKA_SCRIPTED_DIR: z.string().min(1).optional(),
  INSIKA_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.infer<typeof envSchema> & { dataDir: string };

/** Parses an environment record; throws an Error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`invalid environment: ${problems.join("; ")}`);
  }
  return { ...result.data, dataDir: path.resolve(result.data.INSIKA_DATA_DIR) };
}

let cached: Env | undefined;

/** The parsed process environment (memoized). */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Raw environment lookup for the two places that need arbitrary names: secrets and manifest `{{env.*}}`. */
export function readRawEnv(name: string): string | undefined {
  return process.env[name];
}

/** Snapshot of the whole raw environment, for manifest `{{env.*}}` substitution. */
export function rawEnvSnapshot(): Record<string, string | undefined> {
  return { ...process.env };
}
