import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startLoopbackKeyProxy, type LoopbackKeyProxy } from "../support/loopback-key-proxy";
import { startServer, type TestServer } from "../support/server";

/**
 * An agent's MCP endpoint against clients no one here wrote: the official MCP conformance
 * suite's server scenarios that apply to a gateway (docs/decisions.md, MCP server, says which
 * and why not the rest), and the MCP Inspector in CLI mode listing and calling the agent's
 * tools. Both need Node 22 (tools/node22, installed here when missing). The conformance
 * runner cannot send a key: a loopback proxy adds it and passes Host and Origin through, so
 * the DNS-rebinding check judges what the runner sent.
 */
const ROOT = process.cwd();
const NODE22_DIR = path.join(ROOT, "tools/node22");
const NODE22 = path.join(NODE22_DIR, "node_modules/.bin/node");
const RUNNER = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const INSPECTOR = path.join(NODE22_DIR, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
// The Inspector finds its own package.json relative to the working directory.
const INSPECTOR_CWD = path.dirname(INSPECTOR);

/** The server scenarios that apply to an agent's endpoint (the tools and prompt they need are set up below). */
const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-error",
  "prompts-list",
  "prompts-get-simple",
  "dns-rebinding-protection",
  "server-sse-polling",
  "server-sse-multiple-streams",
];

function ensureNode22(): void {
  if (fs.existsSync(NODE22) && fs.existsSync(INSPECTOR)) return;
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const installed = spawnSync(npm, ["ci", "--prefix", NODE22_DIR, "--no-audit", "--no-fund"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (installed.status !== 0 || !fs.existsSync(NODE22)) {
    throw new Error(
      `could not install tools/node22 (npm ci --prefix tools/node22):\n${installed.stdout}\n${installed.stderr}`,
    );
  }
}

function run(args: string[], cwd = ROOT): Promise<{ code: number; output: string; stdout: string }> {
  const child = spawn(NODE22, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let stdout = "";
  child.stdout.on("data", (d) => {
    output += d;
    stdout += d;
  });
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code: code ?? -1, output, stdout })));
}

describe("an agent's MCP endpoint against the conformance suite and the MCP Inspector", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let proxy: LoopbackKeyProxy;
  let key: string;

  beforeAll(async () => {
    ensureNode22();
    backend = await startLoopbackBackend();
    server = await startServer({
      env: { INSIKA_EGRESS_ALLOW_HTTP: "1", INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}` },
    });
    backend.route("GET", "/text", () => ({ body: "This is a simple text response for testing." }));
    backend.route("GET", "/error", () => ({ status: 500, body: { error: "intentional" } }));
    backend.route("GET", "/reconnect", () => ({ body: { reconnected: true }, delayMs: 200 }));
    backend.route("GET", "/add", (req) => {
      const q = new URL(req.url, backend.url).searchParams;
      return { body: { sum: Number(q.get("a")) + Number(q.get("b")) } };
    });
    const tools = [
      { name: "test_simple_text", description: "simple text", request: { method: "GET", url: `${backend.url}/text` } },
      {
        name: "test_error_handling",
        description: "always fails",
        request: { method: "GET", url: `${backend.url}/error` },
      },
      {
        name: "test_reconnection",
        description: "answers after a moment",
        request: { method: "GET", url: `${backend.url}/reconnect` },
      },
      {
        name: "add",
        description: "add two integers",
        parameters: {
          type: "object",
          properties: { a: { type: "integer" }, b: { type: "integer" } },
          required: ["a", "b"],
        },
        request: { method: "GET", url: `${backend.url}/add`, query: { a: "{{a}}", b: "{{b}}" } },
      },
    ];
    for (const tool of tools) {
      const put = await server.api("PUT", `/v1/tools/${tool.name}`, tool);
      expect(put.status, JSON.stringify(put.body)).toBe(201);
    }
    const skill = await server.api("PUT", "/v1/skills/test_simple_prompt", {
      description: "a simple prompt",
      body: "This is a simple prompt for testing.",
    });
    expect(skill.status, JSON.stringify(skill.body)).toBeLessThan(300);
    const agent = await server.api("PUT", "/v1/agents/conformance", {
      name: "Conformance",
      model: { provider: "demo", model: "demo" },
      skills: ["test_simple_prompt"],
    });
    expect(agent.status, JSON.stringify(agent.body)).toBeLessThan(300);
    const created = await server.api("POST", "/v1/keys", {
      name: "conformance",
      scopes: ["turns:run"],
      agents: ["conformance"],
    });
    key = created.body.key;
    proxy = await startLoopbackKeyProxy(server.port, key);
  }, 180_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
    await backend?.close();
  });

  for (const scenario of SCENARIOS) {
    it(`passes the server scenario '${scenario}'`, async () => {
      const url = `${proxy.url}/v1/agents/conformance/mcp`;
      const { code, output } = await run([RUNNER, "server", "--url", url, "--scenario", scenario]);
      expect(output, output).not.toMatch(/FAILURE|WARNING/);
      expect(code, output).toBe(0);
    }, 90_000);
  }

  it("lists and calls the agent's tools with the MCP Inspector CLI", async () => {
    const url = `${server.url}/v1/agents/conformance/mcp`;
    const common = [INSPECTOR, url, "--transport", "http", "--header", `Authorization: Bearer ${key}`];
    const inspect = (args: string[]) => run(args, INSPECTOR_CWD);
    const listed = await inspect([...common, "--method", "tools/list"]);
    expect(listed.code, listed.output).toBe(0);
    const tools = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    const offer = (await server.api("GET", "/v1/agents/conformance/tools")).body as {
      offered: string[];
      system: string[];
    };
    expect(tools.sort()).toEqual([...offer.offered, ...offer.system].sort());
    expect(tools).toEqual(expect.arrayContaining(["add", "load_skill", "test_simple_text"]));
    const called = await inspect([
      ...common,
      "--method",
      "tools/call",
      "--tool-name",
      "add",
      "--tool-arg",
      "a=2",
      "b=3",
    ]);
    expect(called.code, called.output).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ structuredContent: { sum: 5 } });
    const wrongKey = await inspect([
      INSPECTOR,
      url,
      "--transport",
      "http",
      "--header",
      "Authorization: Bearer insk_nope",
      "--method",
      "tools/list",
    ]);
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.output).toContain("unknown API key");
  }, 90_000);
});
