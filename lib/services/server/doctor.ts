/**
 * `insika doctor` and GET /v1/doctor: the checks an operator runs when "the
 * tool is missing" — the database, migrations, the API token, the egress
 * posture, every stored tool that no longer validates (the only place that says so), and
 * stored headers that hold a literal credential, and the tools an agent's provider would reject.
 */
import path from "node:path";
import type { Db } from "@/db/database";
import { listApiKeys } from "@/db/queries/api-keys";
import { countSchemaObjects, getJournalMode, migrationState } from "@/db/queries/database-info";
import { redactUrl } from "@/db/postgres-pool";
import { describePosture, parsePosture, parseProviderPosture } from "@/lib/egress";
import { rawEnvSnapshot, type Env } from "@/lib/env";
import { findLiteralCredentials } from "@/lib/tools";
import { buildCatalog } from "@/lib/services/tools/catalog";
import { checkProviderDialects } from "./check-provider-dialects";

export interface DoctorCheck {
  name: string;
  status: "ok" | "warn" | "error";
  message: string;
  items?: string[];
}

type Check = (db: Db, env: Env) => DoctorCheck | Promise<DoctorCheck>;

const checkDb: Check = async (db, env) => {
  const objects = await countSchemaObjects(db);
  const version = await db.serverVersion();
  if (db.dialect === "postgres") {
    return {
      name: "db",
      status: "ok",
      message: `postgres: ${redactUrl(env.INSIKA_DATABASE_URL ?? "")} (${version}, ${objects} objects in schema public)`,
    };
  }
  const mode = await getJournalMode(db);
  return {
    name: "db",
    status: mode === "wal" ? "ok" : "warn",
    message: `sqlite: ${path.join(env.dataDir, "insika.db")} (${version}, ${objects} objects, journal ${mode})`,
  };
};

const checkMigrations: Check = async (db) => {
  const { applied, shipped: expected } = await migrationState(db);
  return applied === expected
    ? { name: "migrations", status: "ok", message: `${applied} of ${expected} applied` }
    : {
        name: "migrations",
        status: "error",
        message: `${applied} of ${expected} applied: restart the server to migrate`,
      };
};

const checkToken: Check = async (db, env) => {
  const now = Date.now();
  const active = (await listApiKeys(db)).filter(
    (k) => k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now),
  );
  const admins = active.filter((k) => k.scopes.includes("admin")).length;
  if (admins === 0)
    return {
      name: "api-keys",
      status: "error",
      message: "no active admin key: set INSIKA_API_TOKEN or run `insika token --rotate`",
    };
  const bootstrap = env.INSIKA_API_TOKEN
    ? "the bootstrap key is INSIKA_API_TOKEN"
    : `the bootstrap key is in ${path.join(env.dataDir, "api-token")}`;
  return { name: "api-keys", status: "ok", message: `${active.length} active key(s), ${admins} admin; ${bootstrap}` };
};

const checkEgress: Check = () => {
  try {
    const posture = parsePosture(rawEnvSnapshot());
    const message = describePosture(posture);
    return { name: "egress", status: message.startsWith("relaxed") ? "warn" : "ok", message };
  } catch (error) {
    return { name: "egress", status: "error", message: (error as Error).message };
  }
};

const checkProviderEgress: Check = (_db, env) => {
  // env parsing already refused a bad INSIKA_PROVIDER_HOSTS; this names what model calls may reach.
  const posture = parseProviderPosture(env.INSIKA_PROVIDER_HOSTS);
  return { name: "provider-egress", status: "ok", message: `model providers: ${describePosture(posture)}` };
};

const checkDataTools: Check = async (db) => {
  const entries = [...(await buildCatalog(db)).entries.values()];
  const dropped = entries.flatMap((e) => (e.status === "dropped" ? [`${e.name}: ${e.problem}`] : []));
  const data = entries.filter((e) => e.kind !== "code").length;
  return dropped.length === 0
    ? { name: "data-tools", status: "ok", message: `${data} stored tools, all valid` }
    : {
        name: "data-tools",
        status: "error",
        message: `${dropped.length} of ${data} stored tools no longer validate and are dropped from the catalog`,
        items: dropped,
      };
};

// Rows stored before writes refused literal credentials still run; this is where they are named.
// An MCP import listed credential headers as secret headers even when literal, so those are not exempt.
const checkLiteralCredentials: Check = async (db) => {
  const items = [...(await buildCatalog(db)).entries.values()].flatMap((e) =>
    e.status === "ok" && e.kind !== "code"
      ? findLiteralCredentials(e.definition.request.headers, e.definition.secret_headers, {
          exemptSecretHeaders: e.kind !== "mcp",
        }).map((problem) => `${e.name}: ${problem}`)
      : [],
  );
  return items.length === 0
    ? {
        name: "literal-credentials",
        status: "ok",
        message: "no stored tool has a credential written literally in a header",
      }
    : {
        name: "literal-credentials",
        status: "warn",
        message: `${items.length} header(s) of stored tools hold a literal credential (on disk): rewrite each as {{secret.*}} (a write with one is refused)`,
        items,
      };
};

const CHECKS: Check[] = [
  checkDb,
  checkMigrations,
  checkToken,
  checkEgress,
  checkProviderEgress,
  checkDataTools,
  checkLiteralCredentials,
];

/** Runs every check; a check that throws is reported as an error, never thrown. */
export async function runDoctor(db: Db, env: Env): Promise<{ checks: DoctorCheck[] }> {
  const checks: DoctorCheck[] = [];
  for (const check of CHECKS) {
    try {
      checks.push(await check(db, env));
    } catch (error) {
      checks.push({
        name: check.name.replace(/^check/, "").toLowerCase(),
        status: "error",
        message: (error as Error).message,
      });
    }
  }
  checks.push(await checkProviderDialects(db));
  return { checks };
}
