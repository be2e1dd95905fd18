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

// What a shell accepts as a variable name.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  INSIKA_DATA_DIR: z.string().min(1).default("./data"),
  /**
   * `postgres://…` (or `postgresql://…`): keep everything in that PostgreSQL database (a fleet
   * of instances shares it); unset: the SQLite file in the data directory.
   */
  INSIKA_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/./, "INSIKA_DATABASE_URL must be a postgres:// URL")
    .optional(),
  /** Connections each instance keeps to PostgreSQL (default 10). */
  INSIKA_DATABASE_POOL: z.coerce.number().int().min(2).max(200).default(10),
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
  /** Seconds an MCP tools/call waits for its approval (its approval expires then, as a rejection). */
  INSIKA_MCP_APPROVAL_WAIT: z.coerce.number().positive().max(86_400).default(300),
  /**
   * Hosts (CSV of names or host:port) an agent's MCP endpoint answers besides loopback
   * (DNS-rebinding protection checks Host and Origin against them).
   */
  INSIKA_MCP_ALLOWED_HOSTS: z.string().optional(),
  /** Resume turns a dead process left running when the server starts (default on; 0/false/no/off = only on request). */
  INSIKA_RESUME_ON_START: z
    .string()
    .optional()
    .transform((v) => v === undefined || !/^(0|false|no|off)$/i.test(v.trim())),
  /**
   * Seconds a running turn's lease holds without renewal (turn-leases.ts): its owner renews
   * it every fifth of that; another process takes the turn over only once it has expired.
   */
  INSIKA_TURN_LEASE: z.coerce.number().min(1).max(3600).default(15),
  /**
   * Seconds a stop (SIGTERM, SIGINT) waits for the requests in flight before it closes their
   * connections (scripts/serve.mjs); a turn cut so resumes from its last checkpoint. Below the
   * usual supervisor's kill (Kubernetes waits 30 s), so the process exits on its own terms.
   */
  INSIKA_SHUTDOWN_GRACE: z.coerce.number().min(0).max(3600).default(25),
  INSIKA_CONFIG: z.string().optional(),
  INSIKA_DEMO: flag,
  /** Test-only: where provider "scripted" reads `<model>.json` scripts. Unset = scripted refused. */
  INSIKA_SCRIPTED_DIR: z.string().min(1).optional(),
  /** The variables a manifest's `{{env.*}}` may read (CSV of names); unset = none. */
  INSIKA_MANIFEST_ENV: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const names = (v ?? "")
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n !== "");
      for (const name of names) {
        if (!ENV_NAME.test(name))
          ctx.addIssue({ code: "custom", message: `'${name.slice(0, 80)}' is not an environment variable name` });
      }
      return [...new Set(names)];
    }),
  INSIKA_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /**
   * OpenTelemetry export (lib/observability): off unless one of the standard endpoints is set.
   * The SDK reads the rest of the OTEL_* variables (headers, timeout) itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().trim().min(1).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().trim().min(1).optional(),
  OTEL_SERVICE_NAME: z.string().trim().min(1).default("insika"),
  /** The batch span processor's standard knobs (the SDK reads them only through NodeSDK, so we do). */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(600_000).default(5000),
  OTEL_BSP_MAX_QUEUE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(2048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(512),
  OTEL_BSP_EXPORT_TIMEOUT: z.coerce.number().int().min(1).max(600_000).default(30_000),
  /** The GenAI conventions' switch: tool argument and result bodies go into spans only when set. */
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: flag,
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

/** Snapshot of the whole raw environment (the egress posture reads its own variables from it). */
export function rawEnvSnapshot(): Record<string, string | undefined> {
  return { ...process.env };
}

/**
 * What a manifest's `{{env.*}}` may read: exactly the names INSIKA_MANIFEST_ENV
 * lists (each key present, its value undefined when unset), nothing else.
 */
export function manifestEnv(): Record<string, string | undefined> {
  const exposed: Record<string, string | undefined> = {};
  for (const name of getEnv().INSIKA_MANIFEST_ENV) {
    Object.defineProperty(exposed, name, { value: process.env[name], enumerable: true });
  }
  return exposed;
}
