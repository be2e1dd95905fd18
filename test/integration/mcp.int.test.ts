import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackEverythingMcp, type LoopbackEverythingMcp } from "../support/loopback-everything-mcp";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

/**
 * The insika CLI, run without blocking the event loop (spawnSync would stall
 * the keep-alive sockets of the test's HTTP client past the server's timeout).
 */
function runCliAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [path.join(process.cwd(), "node_modules/tsx/dist/cli.mjs"), "cli/insika.ts", ...args],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

type Call = {
  tool: string;
  kind: string;
  ok: boolean;
  status: number | null;
  result: string | null;
  error?: string;
  request: { url: string; headers: Record<string, string>; body?: string } | null;
};

describe("MCP ingestion against @modelcontextprotocol/server-everything", () => {
  let mcp: LoopbackEverythingMcp;
  let server: TestServer;
  let strict: TestServer;
  let scripts: string;

  const script = (name: string, steps: unknown) =>
    fs.writeFileSync(path.join(scripts, `${name}.json`), JSON.stringify(steps));
  const importBody = () => ({
    name: "everything",
    url: mcp.url,
    headers: { Authorization: "Bearer {{secret.mcp_token}}" },
  });
  /** Runs one turn of a scripted agent allowed the MCP group; returns the turn and its calls. */
  const turn = async (id: string, steps: unknown) => {
    script(id, steps);
    await server.api("PUT", `/v1/agents/${id}`, {
      model: { provider: "scripted", model: id },
      tools_allow_groups: ["mcp:everything"],
    });
    const session = (await server.api("POST", "/v1/sessions", { agent_id: id })).body.id as string;
    const res = await server.api("POST", `/v1/sessions/${session}/turns`, { message: "go" });
    const trace = await server.api("GET", `/v1/sessions/${session}/trace`);
    return { turn: res.body, calls: trace.body.turns[0].calls as Call[] };
  };
  const groupTools = async () =>
    ((await server.api("GET", "/v1/tools")).body.tools as { name: string; kind: string; group: string }[]).filter(
      (t) => t.group === "mcp:everything",
    );

  beforeAll(async () => {
    mcp = await startLoopbackEverythingMcp();
    scripts = tempDir("insika-mcp-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${mcp.port}`,
        INSIKA_SECRET_MCP_TOKEN: "mcp-token-value-1",
      },
    });
    strict = await startServer({ env: { INSIKA_SECRET_MCP_TOKEN: "mcp-token-value-1" } });
  });
  afterAll(async () => {
    await server?.stop();
    await strict?.stop();
    await mcp?.stop();
  });

  it("refuses the loopback server under the default egress posture with the guard's message, writing nothing", async () => {
    const res = await strict.api("POST", "/v1/mcp/import", importBody());
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({
      code: "egress_blocked",
      message: expect.stringMatching(/^destination blocked: /),
    });
    expect(res.body.error.details).toMatchObject({
      rule: expect.any(String),
      hint: expect.stringContaining("INSIKA_EGRESS"),
    });
    const tools = (await strict.api("GET", "/v1/tools")).body.tools as { kind: string }[];
    expect(tools.some((t) => t.kind === "mcp")).toBe(false);
  });

  it("refuses a stdio server", async () => {
    const res = await server.api("POST", "/v1/mcp/import", {
      name: "local",
      command: "npx",
      args: ["-y", "server-everything"],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe("only HTTP-transport MCP servers are ingestible");
  });

  it("imports every tool as an mcp data tool of group mcp:everything (with the dev opt-ins)", async () => {
    const res = await server.api("POST", "/v1/mcp/import", importBody());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ group: "mcp:everything", updated: [], removed: [], errors: [] });
    expect(res.body.created).toEqual(
      expect.arrayContaining(["echo", "get_sum", "get_structured_content", "gzip_file_as_resource"]),
    );
    const listed = await groupTools();
    expect(listed.map((t) => t.name).sort()).toEqual([...res.body.created].sort());
    expect(listed.every((t) => t.kind === "mcp")).toBe(true);

    const sum = (await server.api("GET", "/v1/tools/get_sum")).body;
    expect(sum).toMatchObject({
      kind: "mcp",
      side_effect: false,
      secret_headers: ["Authorization"],
      parameters: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      request: {
        method: "POST",
        url: mcp.url,
        protocol: "mcp",
        mcp_tool: "get-sum",
        headers: { Authorization: "Bearer {{secret.mcp_token}}" },
      },
    });
    expect((await server.api("GET", "/v1/tools/gzip_file_as_resource")).body.side_effect).toBe(true);

    await server.api("PUT", "/v1/agents/by-group", {
      model: { provider: "scripted", model: "x" },
      tools_allow_groups: ["mcp:everything"],
    });
    const offered = (await server.api("GET", "/v1/agents/by-group/tools")).body.offered as (
      { name: string } | string
    )[];
    expect(offered.map((o) => (typeof o === "string" ? o : o.name))).toEqual(
      expect.arrayContaining(["echo", "get_sum"]),
    );
  });

  it("calls three tools in a real turn; the trace shows each JSON-RPC request and the unwrapped result", async () => {
    const { turn: t, calls } = await turn("three", [
      [
        { type: "tool-call", name: "echo", args: { message: "hello mcp" } },
        { type: "tool-call", name: "get_sum", args: { a: 2, b: 3 } },
        { type: "tool-call", name: "get_structured_content", args: { location: "Chicago" } },
      ],
      [{ type: "text", text: "done" }],
    ]);
    expect(t).toMatchObject({ status: "completed", content: "done" });
    expect(calls.map((c) => [c.tool, c.kind, c.ok, c.status])).toEqual([
      ["echo", "mcp", true, 200],
      ["get_sum", "mcp", true, 200],
      ["get_structured_content", "mcp", true, 200],
    ]);
    expect(JSON.parse(calls[0]!.result!)).toBe("Echo: hello mcp");
    expect(JSON.parse(calls[1]!.result!)).toBe("The sum of 2 and 3 is 5.");
    expect(JSON.parse(calls[2]!.result!)).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
    expect(JSON.parse(calls[1]!.request!.body!)).toMatchObject({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "get-sum", arguments: { a: 2, b: 3 } },
    });
    expect(calls[0]!.request!.headers).toMatchObject({
      Authorization: "[secret]",
      "Mcp-Session-Id": expect.any(String),
    });
    // One handshake for the three calls: they share the session.
    expect(new Set(calls.map((c) => c.request!.headers["Mcp-Session-Id"])).size).toBe(1);
    expect(JSON.stringify(calls)).not.toContain("mcp-token-value-1");
  });

  it("gives the model an error result for an isError answer", async () => {
    const { calls } = await turn("is-error", [
      [
        {
          type: "tool-call",
          name: "gzip_file_as_resource",
          args: { name: "x.gz", data: "ftp://example.invalid/file", outputType: "resource" },
        },
      ],
      [{ type: "text", text: "it failed" }],
    ]);
    expect(calls[0]).toMatchObject({ tool: "gzip_file_as_resource", ok: false, status: 200 });
    expect(calls[0]!.error).toContain("Unsupported URL protocol");
  });

  it("recovers when the server forgets the session (DELETE) and when it restarts", async () => {
    const first = await turn("session-a", [
      [{ type: "tool-call", name: "echo", args: { message: "one" } }],
      [{ type: "text", text: "ok" }],
    ]);
    const sid = first.calls[0]!.request!.headers["Mcp-Session-Id"]!;
    const del = await fetch(mcp.url, { method: "DELETE", headers: { "mcp-session-id": sid } });
    expect(del.status).toBe(200);
    const afterDelete = await turn("session-b", [
      [{ type: "tool-call", name: "echo", args: { message: "two" } }],
      [{ type: "text", text: "ok" }],
    ]);
    expect(afterDelete.calls[0]).toMatchObject({ ok: true, result: '"Echo: two"' });
    expect(afterDelete.calls[0]!.request!.headers["Mcp-Session-Id"]).not.toBe(sid);

    await mcp.restart();
    const afterRestart = await turn("session-c", [
      [{ type: "tool-call", name: "get_sum", args: { a: 40, b: 2 } }],
      [{ type: "text", text: "ok" }],
    ]);
    expect(afterRestart.calls[0]).toMatchObject({ ok: true, result: '"The sum of 40 and 2 is 42."' });
  });

  it("re-imports: idempotent, restores a deleted tool, reverts an edit, removes what the server no longer lists", async () => {
    const again = await server.api("POST", "/v1/mcp/import", importBody());
    expect(again.body).toMatchObject({ created: [], removed: [], errors: [] });
    expect(again.body.unchanged).toEqual(again.body.updated);

    const sum = (await server.api("GET", "/v1/tools/get_sum")).body;
    const { kind: _k, version: _v, updated_at: _u, ...definition } = sum;
    expect(
      (await server.api("PUT", "/v1/tools/get_sum", { ...definition, description: "edited in the Studio" })).status,
    ).toBe(200);
    expect((await server.api("DELETE", "/v1/tools/echo")).status).toBe(200);
    const stale = { ...definition, name: "retired_tool", request: { ...definition.request, mcp_tool: "retired-tool" } };
    expect((await server.api("PUT", "/v1/tools/retired_tool", stale)).status).toBe(201);

    const cli = await runCliAsync(
      ["mcp", "import", "everything", mcp.url, "--header", "Authorization: Bearer {{secret.mcp_token}}"],
      server.env,
    );
    expect(cli.code, cli.stderr).toBe(0);
    const report = JSON.parse(cli.stdout) as Record<string, string[]>;
    expect(report).toMatchObject({ group: "mcp:everything", created: ["echo"], removed: ["retired_tool"], errors: [] });
    expect(report.updated).toContain("get_sum");
    expect(report.unchanged).not.toContain("get_sum");
    expect((await server.api("GET", "/v1/tools/get_sum")).body.description).toBe("Returns the sum of two numbers");
    expect((await groupTools()).map((t) => t.name)).not.toContain("retired_tool");
  });

  it("reports a server that is down clearly and writes nothing; a call to it fails in the trace", async () => {
    await mcp.stop();
    try {
      const before = (await server.api("GET", "/v1/tools")).body.tools.length as number;
      const res = await server.api("POST", "/v1/mcp/import", { name: "downstream", url: mcp.url });
      expect(res.status).toBe(502);
      expect(res.body.error).toMatchObject({ code: "upstream_failed", message: expect.stringContaining(mcp.url) });
      expect((await server.api("GET", "/v1/tools")).body.tools.length).toBe(before);

      const { calls } = await turn("down", [
        [{ type: "tool-call", name: "echo", args: { message: "x" } }],
        [{ type: "text", text: "ok" }],
      ]);
      expect(calls[0]).toMatchObject({ tool: "echo", ok: false });
      expect(calls[0]!.error).toMatch(/ECONNREFUSED|connect|refused/i);
    } finally {
      await mcp.start();
    }
  });
});
