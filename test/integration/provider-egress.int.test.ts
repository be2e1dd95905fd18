// Provider endpoints and saved URLs go through the egress guard, against the real server.
// Every model server here is a loopback one (test/support/loopback-model-server.ts).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asksForStream,
  chatCompletion,
  startLoopbackModelServer,
  type LoopbackModelServer,
} from "../support/loopback-model-server";
import { runCli, startServer, type TestServer } from "../support/server";

// The turns here are JSON turns: the provider is asked for one whole answer per step.
const answer = (text: string) => ({ kind: "json" as const, body: chatCompletion({ text }) });

async function turn(server: TestServer, agentId: string, baseUrl: string, message = "hello") {
  const put = await server.api("PUT", `/v1/agents/${agentId}`, {
    model: { provider: "openai-compatible", model: "m", base_url: `${baseUrl}/v1` },
  });
  expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
  const session = await server.api("POST", "/v1/sessions", { agent_id: agentId });
  const result = await server.api("POST", `/v1/sessions/${session.body.id}/turns`, { message });
  return { sessionId: session.body.id as string, ...result.body };
}

describe("without INSIKA_PROVIDER_HOSTS", () => {
  let server: TestServer;
  let model: LoopbackModelServer;
  beforeAll(async () => {
    model = await startLoopbackModelServer([answer("must never be asked")]);
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it("fails a turn whose model is on 127.0.0.1 with a clear destination-blocked error, sending nothing", async () => {
    const result = await turn(server, "local_llm", model.baseUrl);
    expect(result.status).toBe("failed");
    expect(result.error).toContain("destination blocked: plain http is not allowed");
    expect(result.error).toContain("rule plain-http");
    expect(result.error).toContain("list 127.0.0.1 in INSIKA_PROVIDER_HOSTS");
    expect(result).toMatchObject({ code: "provider_blocked", fault: "configuration" });
    const trace = await server.api("GET", `/v1/sessions/${result.sessionId}/trace`);
    const failed = trace.body.turns[0].events.find((e: { type: string }) => e.type === "turn_failed");
    expect(failed.error ?? failed.data?.error ?? JSON.stringify(failed)).toContain("INSIKA_PROVIDER_HOSTS");
    expect(failed).toMatchObject({ code: "provider_blocked", fault: "configuration" });
    expect(model.requests).toEqual([]);
  });

  it("refuses to save an agent whose base_url has a refused form", async () => {
    for (const [base_url, rule] of [
      ["http://127.0.0.1\\v1", "backslash"],
      ["http://key:x@127.0.0.1/v1", "userinfo"],
      ["http://127.0.0.1:99999/v1", "bad-port"],
    ]) {
      const put = await server.api("PUT", "/v1/agents/bad_url", {
        model: { provider: "openai-compatible", model: "m", base_url },
      });
      expect(put.status, base_url).toBe(422);
      expect(put.body.error.message).toContain(`base_url is refused by the egress guard (${rule})`);
    }
    expect((await server.api("GET", "/v1/agents/bad_url")).status).toBe(404);
  });

  it("refuses a tool URL the guard refuses for its form on every write path, with the guard's reason", async () => {
    const url = "https://api.example.com/a\\{{id}}";
    const reason = "request.url is refused by the egress guard (backslash): URL contains a backslash";
    const tool = {
      name: "bs_tool",
      description: "d",
      parameters: "id | string | required",
      request: { method: "GET", url },
    };

    const put = await server.api("PUT", "/v1/tools/bs_tool", tool);
    expect(put.status).toBe(422);
    expect(put.body.error.message).toContain(reason);

    const manifest = await server.api("POST", "/v1/tools/manifest", {
      tools: [tool, { ...tool, name: "ok_tool", request: { method: "GET", url: "https://api.example.com/a/{{id}}" } }],
    });
    expect(manifest.status).toBe(200);
    expect(manifest.body.created).toEqual(["ok_tool"]);
    expect(manifest.body.errors).toEqual([{ index: 0, tool: "bs_tool", error: expect.stringContaining(reason) }]);

    const dir = fs.mkdtempSync(path.join(server.dataDir, "cfg-"));
    const file = path.join(dir, "insika.config.ts");
    fs.writeFileSync(
      file,
      `export default [{ id: "cfg", model: { provider: "demo", model: "demo" }, dataTools: [${JSON.stringify(tool)}] }];`,
    );
    const applied = runCli(["apply", file], server.env);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(reason);

    const imported = await server.api("POST", "/v1/mcp/import", { name: "bs", url: "http://127.0.0.1:1\\mcp" });
    expect(imported.status).toBe(422);
    expect(imported.body.error.message).toContain("URL contains a backslash");

    for (const name of ["bs_tool", "cfg"]) expect((await server.api("GET", `/v1/tools/${name}`)).status).toBe(404);
  });
});

describe("with INSIKA_PROVIDER_HOSTS=127.0.0.1", () => {
  let server: TestServer;
  const models: LoopbackModelServer[] = [];
  beforeAll(async () => {
    server = await startServer({ env: { INSIKA_PROVIDER_HOSTS: "127.0.0.1" } });
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all(models.map((m) => m.close()));
  });
  const modelServer = async (...script: Parameters<typeof startLoopbackModelServer>[0]) => {
    const m = await startLoopbackModelServer(script);
    models.push(m);
    return m;
  };

  it("runs the turn against the loopback model", async () => {
    const model = await modelServer(answer("hi from the local model"));
    const result = await turn(server, "local_ok", model.baseUrl);
    expect(result).toMatchObject({ status: "completed", content: "hi from the local model" });
    expect(model.requests).toHaveLength(1);
    expect(asksForStream(model.requests[0])).toBe(false);
  });

  it("does not follow a provider's redirect", async () => {
    const elsewhere = await modelServer(answer("stolen"));
    // The scripted model server cannot set Location; a plain loopback one redirects.
    const raw = http.createServer((_req, res) =>
      res.writeHead(307, { location: `${elsewhere.baseUrl}/v1/chat/completions` }).end(),
    );
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const port = (raw.address() as { port: number }).port;
    try {
      const result = await turn(server, "redirected", `http://127.0.0.1:${port}`);
      expect(result.status).toBe("failed");
      expect(result.error).toContain(
        `provider endpoint answered 307 (a redirect to ${elsewhere.baseUrl}); redirects are not followed`,
      );
      expect(elsewhere.requests).toEqual([]);
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("still blocks what the listing does not name (another loopback address)", async () => {
    const result = await turn(server, "other_loop", "http://127.0.0.2:9");
    expect(result.status).toBe("failed");
    expect(result.error).toContain("list 127.0.0.2 in INSIKA_PROVIDER_HOSTS");
  });
});
