import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBackend, type Backend } from "../support/backend";
import { startServer, tempDir, type TestServer } from "../support/server";

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
  let backend: Backend;

  beforeAll(async () => {
    backend = await startBackend();
    // The backend echoes the credential back: the worst case for a leak.
    backend.route("GET", "/whoami", (req) => ({ body: { auth: req.headers.authorization, note: `token was ${req.headers.authorization}` } }));
    backend.route("GET", "/fail", (req) => ({ status: 500, body: { error: `bad ${req.headers.authorization}` } }));
    const scripts = tempDir("insika-secret-scripts-");
    fs.writeFileSync(
      path.join(scripts, "leaky.json"),
      JSON.stringify([[{ type: "tool-call", name: "whoami", args: {} }, { type: "tool-call", name: "fail_echo", args: {} }], [{ type: "text", text: "done" }]]),
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
      defaults: { secret_headers: ["Authorization"], request: { headers: { Authorization: "Bearer {{secret.api_token}}" } } },
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
