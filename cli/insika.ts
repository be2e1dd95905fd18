#!/usr/bin/env -S npx tsx
/**
 * The insika command: `prepare`, `doctor [--json]`, `apply [FILE]`, `token [--rotate]`,
 * `keys create|list|revoke`, `mcp import NAME URL [--header 'K: V']...`, `openapi import NAME URL|FILE ...`.
 * Run it with `npm run insika -- <command>` (or `npx tsx cli/insika.ts <command>`).
 */
import { closeAllDbs, getDb, type Db } from "@/db/client";
import { operatorPrincipal } from "@/lib/access/principal";
import { createKey, createKeyBody, listKeys, revokeKey } from "@/lib/services/keys/api-keys";
import { ensureBootstrapKey, rotateBootstrapKey, tokenFile } from "@/lib/services/keys/bootstrap-key";
import { DomainError } from "@/lib/errors";
import { getEnv } from "@/lib/env";
import { applyConfig } from "@/lib/services/server/apply-config";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { importMcpServer } from "@/lib/services/mcp/import-mcp-server";
import { importOpenApi } from "@/lib/services/openapi/import-openapi";
import { openApiImportBody } from "./openapi-import-args";
import { processSecrets } from "@/lib/secrets/secret-source";
import { runDoctor } from "@/lib/services/server/doctor";
import { configFilePath, loadConfigFile, prepare } from "@/lib/services/server/prepare";
import fs from "node:fs";
import { parseMcpImportFlags } from "./mcp-import-args";

const USAGE = `usage: insika <command>
  prepare            migrate, ensure the API token, seed (INSIKA_DEMO=1), apply the config file
  doctor [--json]    check the database, migrations, token, egress posture and stored tools
  apply [FILE]       apply insika.config.ts (or FILE, or INSIKA_CONFIG) without a restart
  token [--rotate]   print the bootstrap admin key (or generate a new one)
  keys create NAME --scope S [--scope S]... [--agent ID]... [--tenant T]
                     [--expires ISO-8601] [--turns-per-minute N]
                     create an API key (its value is printed once)
  keys list          every key (never a value)
  keys revoke ID     revoke a key (it stops working on the next request)
  mcp import NAME URL [--header 'K: V']...
                     [--oauth-client-id ID --oauth-client-secret '{{secret.NAME}}' [--oauth-scope S]]
                     adopt an HTTP MCP server's tools as data tools of group mcp:NAME
                     (header values may use {{secret.*}}; a protected server takes
                     OAuth client credentials)
  openapi import NAME URL|FILE [--server URL] [--operation ID]... [--auth SCHEME=SECRET]...
                     adopt an OpenAPI 3.0/3.1 or Swagger 2.0 document's operations (JSON or YAML)
                     as data tools of group openapi:NAME; lists the secrets to provision`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const env = getEnv();
  switch (command) {
    case "prepare": {
      const report = await prepare(env);
      if (report.newToken) {
        console.log(`Generated an API token (shown once; also saved to ${report.tokenFile}):\n  ${report.newToken}`);
      }
      if (report.seeded.length) console.log(`Seeded the demo: ${report.seeded.join(", ")}`);
      if (report.config)
        console.log(`Applied ${report.config.file}: agents ${report.config.agents.join(", ") || "none"}`);
      return 0;
    }
    case "doctor": {
      const result = await runDoctor(getDb(env), env);
      if (args.includes("--json")) console.log(JSON.stringify(result, null, 2));
      else
        for (const c of result.checks)
          console.log(
            `${c.status.toUpperCase().padEnd(5)} ${c.name}: ${c.message}${(c.items ?? []).map((i) => `\n      - ${i}`).join("")}`,
          );
      return result.checks.some((c) => c.status === "error") ? 1 : 0;
    }
    case "apply": {
      const file = args[0] ?? configFilePath(env);
      if (!file) throw new Error("no config file: pass one, set INSIKA_CONFIG, or create insika.config.ts");
      const result = await applyConfig(getDb(env), OPERATOR, await loadConfigFile(file));
      console.log(JSON.stringify(result, null, 2));
      return 0;
    }
    case "token": {
      const db = getDb(env);
      const config = { envToken: env.INSIKA_API_TOKEN, dataDir: env.dataDir };
      if (args.includes("--rotate")) {
        console.log(await rotateBootstrapKey(db, config));
        return 0;
      }
      if (env.INSIKA_API_TOKEN) {
        console.log("the token is INSIKA_API_TOKEN (set in this environment)");
        return 0;
      }
      const fresh = await ensureBootstrapKey(db, config);
      console.log(fresh ?? fs.readFileSync(tokenFile(env.dataDir), "utf8").trim());
      return 0;
    }
    case "mcp": {
      const [sub, name, url, ...rest] = args;
      if (sub !== "import" || !name || !url) throw new Error(`usage: insika mcp import NAME URL [--header 'K: V']...`);
      const { headers, auth } = parseMcpImportFlags(rest);
      const body = { name, url, headers, ...(auth ? { auth } : {}) };
      const result = await importMcpServer(getDb(env), OPERATOR, body, {
        posture: getPosture(),
        secrets: processSecrets,
      });
      console.log(JSON.stringify(result, null, 2));
      return 0;
    }
    case "openapi": {
      const result = await importOpenApi(getDb(env), OPERATOR, openApiImportBody(args), {
        posture: getPosture(),
        secrets: processSecrets,
      });
      console.log(JSON.stringify(result, null, 2));
      return 0;
    }
    case "keys":
      return runKeys(getDb(env), args);
    default:
      console.error(USAGE);
      return command === undefined || command === "help" || command === "--help" ? 0 : 2;
  }
}

/** The CLI runs on the operator's machine with the database itself: it acts as the operator. */
const OPERATOR = operatorPrincipal("cli");

async function runKeys(db: Db, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    for (const k of await listKeys(db, OPERATOR)) {
      const limits = [
        k.agents ? `agents ${k.agents.join(",")}` : "",
        k.tenant ? `tenant ${k.tenant}` : "",
        k.turns_per_minute ? `${k.turns_per_minute}/min` : "",
      ]
        .filter(Boolean)
        .join("; ");
      console.log(
        `${k.id}  ${k.status.padEnd(7)}  ${k.name}  [${k.scopes.join(" ")}]${limits ? `  ${limits}` : ""}  ${k.prefix}`,
      );
    }
    return 0;
  }
  if (sub === "revoke" && rest[0]) {
    console.log(JSON.stringify(await revokeKey(db, OPERATOR, rest[0]), null, 2));
    return 0;
  }
  if (sub === "create" && rest[0] && !rest[0].startsWith("--")) {
    const [name, ...flags] = rest;
    const body: Record<string, unknown> = { name };
    const list = (key: string, value: string) => ((body[key] as string[] | undefined) ?? []).concat(value);
    for (let i = 0; i < flags.length; i += 2) {
      const flag = flags[i] as string;
      const value = flags[i + 1];
      if (value === undefined) throw new Error(`${flag} needs a value`);
      if (flag === "--scope") body.scopes = list("scopes", value);
      else if (flag === "--agent") body.agents = list("agents", value);
      else if (flag === "--tenant") body.tenant = value;
      else if (flag === "--expires") body.expires_at = value;
      else if (flag === "--turns-per-minute") body.turns_per_minute = Number(value);
      else throw new Error(`unknown flag '${flag}'`);
    }
    const parsed = createKeyBody.safeParse(body);
    if (!parsed.success)
      throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "key"}: ${i.message}`).join("; "));
    const created = await createKey(db, OPERATOR, parsed.data);
    console.log(
      `Created key ${created.id} (${created.name}, ${created.scopes.join(" ")}). Its value, shown only now:\n  ${created.key}`,
    );
    return 0;
  }
  throw new Error("usage: insika keys create NAME --scope S [...] | keys list | keys revoke ID");
}

void main(process.argv.slice(2))
  .then(async (code) => {
    process.exitCode = code;
    await closeAllDbs();
  })
  .catch(async (error: unknown) => {
    console.error(`insika: ${error instanceof DomainError || error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
    await closeAllDbs().catch(() => undefined);
  });
