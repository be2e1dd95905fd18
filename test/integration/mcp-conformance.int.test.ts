import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

/**
 * The official MCP conformance suite's client scenarios, run through the real
 * product: the runner (@modelcontextprotocol/conformance, which needs Node 22:
 * tools/node22, installed here when missing) starts each scenario's server and
 * runs test/conformance/insika-client.mjs with its URL; that script imports the
 * server into this Insika (POST /v1/mcp/import) and calls its tool through a
 * turn. The runner's verdict (every check SUCCESS, no warning) is the test's.
 */
const ROOT = process.cwd();
const NODE22_DIR = path.join(ROOT, "tools/node22");
const NODE22 = path.join(NODE22_DIR, "node_modules/.bin/node");
const RUNNER = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = "test/conformance/insika-client.mjs";
const SCENARIOS = ["initialize", "tools_call", "sse-retry", "auth/client-credentials-basic"];

/** Files under `dir` (the database and its WAL included) whose bytes contain `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(needle)) found.push(file);
  }
  return found;
}

/** The Node 22 runtime the runner needs (a separate package: the root's npm scripts stay on Node 20). */
function ensureNode22(): void {
  if (fs.existsSync(NODE22)) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const installed = spawnSync(npm, ["ci", "--prefix", NODE22_DIR, "--no-audit", "--no-fund"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (installed.status !== 0 || !fs.existsSync(NODE22)) {
    throw new Error(
      `could not install the Node 22 runtime (npm ci --prefix tools/node22):\n${installed.stdout}\n${installed.stderr}`,
    );
  }
}

function runScenario(
  scenario: string,
  server: TestServer,
  scripts: string,
  secrets: string,
): Promise<{ code: number; output: string }> {
  const child = spawn(
    NODE22,
    [RUNNER, "client", "--command", `${process.execPath} ${CLIENT}`, "--scenario", scenario, "--timeout", "45000"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        INSIKA_URL: server.url,
        INSIKA_TOKEN: server.token,
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_SECRETS_DIR: secrets,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code: code ?? -1, output })));
}

describe("the MCP conformance suite's client scenarios, through Insika", () => {
  let server: TestServer;
  let scripts: string;
  let secrets: string;

  beforeAll(async () => {
    ensureNode22();
    scripts = tempDir("insika-conformance-scripts-");
    // The OAuth scenarios' client secrets are provisioned here by the client script (read at call time).
    secrets = tempDir("insika-conformance-secrets-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_SECRETS_DIR: secrets,
        // The scenario servers listen on http://localhost:<random port>.
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_ALLOW_PRIVATE: "1",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const scenario of SCENARIOS) {
    it(`passes '${scenario}'`, async () => {
      const { code, output } = await runScenario(scenario, server, scripts, secrets);
      expect(output, output).toContain("OVERALL: PASSED");
      expect(code, output).toBe(0);
      if (scenario.startsWith("auth/"))
        expect(filesHolding(server.dataDir, "cc-token-"), "a token on disk").toEqual([]);
    }, 90_000);
  }
});
