import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asksForStream,
  chatCompletion,
  startLoopbackModelServer,
  type LoopbackModelServer,
} from "../support/loopback-model-server";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const SECRET = "sk-live-7f3a9c2e1b5d4f6a8c0e";

/** Every file of the data directory (the SQLite file, its WAL, the token file...) as bytes. */
function dataDirContains(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (!fs.statSync(file).isFile()) continue;
    const bytes = fs.readFileSync(file);
    for (const form of [needle, Buffer.from(needle).toString("base64"), encodeURIComponent(needle)]) {
      if (bytes.includes(Buffer.from(form))) hits.push(`${name} (${form === needle ? "plain" : "encoded"})`);
    }
  }
  return hits;
}

describe("a secret never lands on disk, in traces, in responses or in logs", () => {
  let server: TestServer;
  let backend: LoopbackBackend;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    // The backend echoes the credential back: the worst case for a leak.
    backend.route("GET", "/whoami", (req) => ({
      body: { auth: req.headers.authorization, note: `token was ${req.headers.authorization}` },
    }));
    backend.route("GET", "/fail", (req) => ({ status: 500, body: { error: `bad ${req.headers.authorization}` } }));
    const scripts = tempDir("insika-secret-scripts-");
    fs.writeFileSync(
      path.join(scripts, "leaky.json"),
      JSON.stringify([
        [
          { type: "tool-call", name: "whoami", args: {} },
          { type: "tool-call", name: "fail_echo", args: {} },
        ],
        [{ type: "text", text: "done" }],
      ]),
    );
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_SECRET_API_TOKEN: SECRET,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
        INSIKA_LOG_LEVEL: "debug",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it("keeps the secret out of the stored definition, the trace, the test endpoint, the SQLite files and the logs", async () => {
    const manifest = await server.api("POST", "/v1/tools/manifest", {
      defaults: {
        secret_headers: ["Authorization"],
        request: { headers: { Authorization: "Bearer {{secret.api_token}}" } },
      },
      tools: [
        { name: "whoami", description: "who am I", request: { method: "GET", url: `${backend.url}/whoami` } },
        { name: "fail_echo", description: "fails", request: { method: "GET", url: `${backend.url}/fail` } },
      ],
    });
    expect(manifest.body.errors).toEqual([]);
    await server.api("PUT", "/v1/agents/leaky", { model: { provider: "scripted", model: "leaky" } });
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "leaky" })).body.id;
    const turn = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "who am I?" });
    expect(turn.body.status).toBe("completed");

    // The backend really received the secret: the call was made with it.
    expect(backend.requests.some((r) => r.headers.authorization === `Bearer ${SECRET}`)).toBe(true);

    const tried = await server.api("POST", "/v1/tools/whoami/test", { arguments: {} });
    const trace = await server.api("GET", `/v1/sessions/${sessionId}/trace`);
    const transcript = await server.api("GET", `/v1/sessions/${sessionId}`);
    const tool = await server.api("GET", "/v1/tools/whoami");
    for (const body of [tried.body, trace.body, transcript.body, tool.body]) {
      expect(JSON.stringify(body)).not.toContain(SECRET);
    }
    expect(JSON.stringify(trace.body)).toContain("[secret]");
    expect(tool.body.request.headers.Authorization).toBe("Bearer {{secret.api_token}}");

    await server.stop();
    expect(dataDirContains(server.dataDir, SECRET)).toEqual([]);
    expect(server.output()).not.toContain(SECRET);
  });
});

describe("a model API key stays on the provider path", () => {
  const KEY = "sk-prov-4e1d9b7c3a5f2e8d6b0a";
  const DATA_SECRET = "data-only-9c8b7a6f5e4d";
  let server: TestServer;
  let model: LoopbackModelServer;

  beforeAll(async () => {
    // JSON turns: each step is one non-streaming provider call.
    model = await startLoopbackModelServer([
      { kind: "json", body: chatCompletion({ text: "hello" }) },
      // The worst provider: its error page quotes the key back, long, and in encoded forms.
      {
        kind: "error",
        status: 500,
        contentType: "text/plain",
        body: `upstream failed for key ${KEY} (${encodeURIComponent(KEY)}) ${"trace ".repeat(500)}`,
      },
    ]);
    server = await startServer({
      env: {
        INSIKA_PROVIDER_HOSTS: "127.0.0.1",
        INSIKA_PROVIDER_SECRET_LLM_KEY: KEY,
        INSIKA_SECRET_DATA_TOKEN: DATA_SECRET,
        INSIKA_LOG_LEVEL: "debug",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });

  it("sends the key only to the provider, and never stores, traces or logs it, even when the provider echoes it", async () => {
    const agent = {
      model: { provider: "openai-compatible", model: "m", base_url: `${model.baseUrl}/v1`, api_key_secret: "llm_key" },
    };
    expect((await server.api("PUT", "/v1/agents/keyed", agent)).status).toBe(201);
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "keyed" })).body.id;
    const ok = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "hi" });
    expect(ok.body).toMatchObject({ status: "completed", content: "hello" });
    expect(model.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(asksForStream(model.requests[0])).toBe(false);

    const failed = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "again" });
    expect(failed.body.status).toBe("failed");
    expect(failed.body.error).toContain(
      "provider error: 500 Internal Server Error: upstream failed for key [secret] ([secret])",
    );
    expect(failed.body.error.length).toBeLessThan(400);
    expect(failed.body).toMatchObject({ code: "model_error", fault: "model" });
    expect(asksForStream(model.requests[1])).toBe(false);

    // A data tool cannot read the provider key: {{secret.llm_key}} is not provisioned for it.
    const manifest = await server.api("POST", "/v1/tools/manifest", {
      tools: [
        {
          name: "grab_key",
          description: "d",
          secret_headers: ["Authorization"],
          request: {
            method: "GET",
            url: "https://api.example.com/x",
            headers: { Authorization: "{{secret.llm_key}}" },
          },
        },
      ],
    });
    expect(manifest.body.errors[0].error).toContain("secret 'llm_key' is not provisioned");
    // And an agent cannot name a data-tool secret as its key: nothing is sent with it.
    const before = model.requests.length;
    await server.api("PUT", "/v1/agents/borrower", { model: { ...agent.model, api_key_secret: "data_token" } });
    const other = (await server.api("POST", "/v1/sessions", { agent_id: "borrower" })).body.id;
    const borrowed = await server.api("POST", `/v1/sessions/${other}/turns`, { message: "hi" });
    expect(borrowed.body.status).toBe("failed");
    expect(borrowed.body.error).toContain(
      'model API key secret "data_token" is not provisioned (set env INSIKA_PROVIDER_SECRET_DATA_TOKEN',
    );
    expect(borrowed.body).toMatchObject({ code: "provider_secret_missing", fault: "configuration" });
    expect(model.requests.length).toBe(before);

    const trace = await server.api("GET", `/v1/sessions/${sessionId}/trace`);
    const transcript = await server.api("GET", `/v1/sessions/${sessionId}`);
    const agentRow = await server.api("GET", "/v1/agents/keyed");
    for (const body of [ok.body, failed.body, trace.body, transcript.body, agentRow.body, borrowed.body]) {
      expect(JSON.stringify(body)).not.toContain(KEY);
      expect(JSON.stringify(body)).not.toContain(DATA_SECRET);
    }
    await server.stop();
    expect(dataDirContains(server.dataDir, KEY)).toEqual([]);
    expect(server.output()).not.toContain(KEY);
  });
});
