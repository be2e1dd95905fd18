import fs from "node:fs";
import path from "node:path";
import { startLoopbackBackend } from "../test/support/loopback-backend";
import { startLoopbackEverythingMcp } from "../test/support/loopback-everything-mcp";
import { assertNoProcessErrors } from "../test/support/server-log-check";
import { startServer } from "../test/support/server";
import { tempDir } from "../test/support/temp-dir";

/** How long each call to the slow backend takes: long enough for parallel calls to visibly overlap. */
const SLOW_MS = 600;

/**
 * One real server for the browser specs, in demo mode (seeded agent and tools), plus what
 * some specs need on loopback, started first so the egress allowlist can name them: the
 * official example MCP server (the import form) and a slow HTTP backend (the trace waterfall,
 * driven by a scripted model whose scripts live in E2E_SCRIPTED_DIR).
 */
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3417);
  const mcp = await startLoopbackEverythingMcp();
  const slow = await startLoopbackBackend();
  slow.route("GET", "/slow", () => ({ body: { ok: true }, delayMs: SLOW_MS }));
  const scripts = tempDir("insika-e2e-scripts-");
  fs.writeFileSync(
    path.join(scripts, "overlap.json"),
    JSON.stringify([
      // Four calls in one step; the agent's tool_concurrency 3 runs three at once and queues the fourth.
      [1, 2, 3, 4].map((n) => ({ type: "tool-call", name: "slow_lookup", args: { n: String(n) } })),
      [{ type: "text", text: "All four lookups are back." }],
    ]),
  );
  fs.writeFileSync(
    path.join(scripts, "delegate.json"),
    JSON.stringify([
      // One subagent turn of the demo agent, whose trace links back to this turn.
      [{ type: "tool-call", name: "spawn_subagent", args: { agent: "demo", message: "order_status order_id=A-1001" } }],
      [{ type: "text", text: "Delegated to the demo agent." }],
    ]),
  );
  const server = await startServer({
    port,
    env: {
      INSIKA_DEMO: "1",
      INSIKA_EGRESS_ALLOW_HTTP: "1",
      INSIKA_EGRESS_HOSTS: [`127.0.0.1:${port}`, `127.0.0.1:${mcp.port}`, `127.0.0.1:${slow.port}`].join(","),
      INSIKA_SCRIPTED_DIR: scripts,
      // For the import form's `{{secret.mcp_token}}` header (server-everything ignores it).
      INSIKA_SECRET_MCP_TOKEN: "e2e-mcp-token-value",
    },
  });
  process.env.E2E_TOKEN = server.token;
  process.env.E2E_DATA_DIR = server.dataDir;
  process.env.E2E_MCP_URL = mcp.url;
  process.env.E2E_SLOW_URL = `${slow.url}/slow`;
  return async () => {
    await server.stop();
    await slow.close();
    await mcp.stop();
    // Fails the run when the server logged an uncaughtException or unhandledRejection,
    // even if every spec passed (see test/support/server-log-check.ts).
    assertNoProcessErrors(server.output(), "the browser tests' server");
  };
}
