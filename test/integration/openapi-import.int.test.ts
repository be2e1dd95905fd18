// OpenAPI import against the real server: a public document (Petstore 3.0 from @readme/oas-examples) fetched
// through the egress guard from a loopback backend, then one of its operations called for real through a turn.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startLoopbackServer, type LoopbackServer } from "../support/loopback-server";
import { startServer, type TestServer } from "../support/server";

const require = createRequire(import.meta.url);
const PETSTORE = readFileSync(require.resolve("@readme/oas-examples/3.0/json/petstore.json"), "utf8");
const SECRET = "pets-key-value-not-for-traces";

describe("OpenAPI import and a call of an imported operation through a turn", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let outside: LoopbackServer;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    // Another loopback port, not on the allowlist: the guard must refuse it.
    outside = await startLoopbackServer((_req, res) => res.end(PETSTORE));
    backend.route("GET", "/openapi.json", () => ({ body: JSON.parse(PETSTORE) }));
    backend.route("GET", "/v2/pet/7", (req) =>
      req.headers.api_key === SECRET
        ? { body: { id: 7, name: "Rex", status: "available" } }
        : { status: 401, body: { error: "no key" } },
    );
    server = await startServer({
      env: {
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
        INSIKA_SECRET_PETS_API_KEY: SECRET,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
    await outside?.close();
  });

  it("refuses a document URL the egress guard does not allow, sending nothing", async () => {
    const res = await server.api("POST", "/v1/openapi/import", { name: "pets", url: `${outside.origin}/openapi.json` });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("egress_blocked");
    expect(res.body.error.message).toMatch(/^destination blocked: /);
    expect(outside.requests).toStrictEqual([]);
    expect((await server.api("GET", "/v1/tools/get_pet_by_id")).status).toBe(404);
  });

  it("answers 422 with the parser's reason for a document that does not parse", async () => {
    const res = await server.api("POST", "/v1/openapi/import", { name: "pets", document: "openapi: [" });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^the document does not parse: not valid YAML: /);
  });

  it("imports the document, then an imported operation is called for real in a turn", async () => {
    const imported = await server.api("POST", "/v1/openapi/import", {
      name: "pets",
      url: `${backend.url}/openapi.json`,
      server: `${backend.url}/v2`,
    });
    expect(imported.status).toBe(200);
    expect(imported.body.created).toHaveLength(20);
    expect(imported.body.errors).toStrictEqual([]);
    expect(imported.body.secrets).toContainEqual({
      name: "pets_api_key",
      scheme: "api_key",
      header: "api_key",
      provisioned: true,
    });

    const tool = await server.api("GET", "/v1/tools/get_pet_by_id");
    expect(tool.body).toMatchObject({
      group: "openapi:pets",
      kind: "data",
      request: {
        method: "GET",
        url: `${backend.url}/v2/pet/{{petId}}`,
        headers: { api_key: "{{secret.pets_api_key}}" },
      },
    });

    const agent = await server.api("PUT", "/v1/agents/pets", {
      model: { provider: "demo", model: "demo" },
      tools_allow_groups: ["openapi:pets"],
    });
    expect(agent.status).toBe(201);
    expect(agent.body.dialect_problems).toStrictEqual([]);
    const session = (await server.api("POST", "/v1/sessions", { agent_id: "pets" })).body.id as string;
    const turn = await server.api("POST", `/v1/sessions/${session}/turns`, { message: "get_pet_by_id petId=7" });
    expect(turn.body.status).toBe("completed");
    expect(turn.body.content).toContain('"name":"Rex"');

    const calls = backend.requests.filter((r) => r.url.startsWith("/v2/"));
    expect(calls.map((r) => [r.method, r.url, r.headers.api_key])).toStrictEqual([["GET", "/v2/pet/7", SECRET]]);
    const trace = await server.api("GET", `/v1/sessions/${session}/trace`);
    const call = trace.body.turns[0].calls[0];
    expect(call).toMatchObject({ tool: "get_pet_by_id", status: 200, ok: true, arguments: { petId: 7 } });
    expect(call.request.url).toBe(`${backend.url}/v2/pet/7`);
    expect(JSON.stringify(trace.body)).not.toContain(SECRET);

    const again = await server.api("POST", "/v1/openapi/import", {
      name: "pets",
      url: `${backend.url}/openapi.json`,
      server: `${backend.url}/v2`,
    });
    expect([again.body.created, again.body.removed, again.body.unchanged.length]).toStrictEqual([[], [], 20]);
  });

  it("reports what a Gemini agent's provider would reject: in the save answers, the catalog and doctor", async () => {
    const put = await server.api("PUT", "/v1/tools/free_map", {
      name: "free_map",
      description: "takes a free-form map",
      parameters: {
        type: "object",
        properties: { filters: { type: "object", properties: {}, additionalProperties: true } },
      },
      request: { method: "POST", url: `${backend.url}/free`, body: { filters: "{{filters}}" } },
    });
    expect(put.status).toBe(201);
    expect(put.body.dialect_problems).toStrictEqual([]);
    const gemini = {
      provider: "openai-compatible",
      model: "gemini-2.5-flash",
      base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
    };
    const agent = await server.api("PUT", "/v1/agents/gem", { model: gemini, tools_allow: ["free_map"] });
    const expected =
      "parameters.properties.filters: Gemini does not accept additionalProperties (remove it, or set model.strict: true to have Insika compile it for the provider)";
    expect(agent.body.dialect_problems).toContainEqual({
      tool: "free_map",
      dialect: "gemini",
      path: "parameters.properties.filters",
      message: expected,
    });
    const again = await server.api("PUT", "/v1/tools/free_map", withoutMeta(put.body));
    expect(again.body.dialect_problems.map((p: { agent: string }) => p.agent)).toContain("gem");
    // A manifest that writes the tool answers the same problems.
    const manifest = await server.api("POST", "/v1/tools/manifest", { tools: [withoutMeta(put.body)] });
    expect(manifest.status).toBe(200);
    expect(manifest.body.dialect_problems).toContainEqual({
      agent: "gem",
      tool: "free_map",
      dialect: "gemini",
      path: "parameters.properties.filters",
      message: expected,
    });
    const catalog = await server.api("GET", "/v1/tools");
    const entry = catalog.body.tools.find((t: { name: string }) => t.name === "free_map");
    expect(entry.dialect_problems[0]).toMatchObject({ agent: "gem", dialect: "gemini", message: expected });
    const doctor = await server.api("GET", "/v1/doctor");
    const check = doctor.body.checks.find((c: { name: string }) => c.name === "provider-dialects");
    expect(check.status).toBe("warn");
    expect(check.items).toContain(`gem / free_map: ${expected}`);
  });
});

/** A tool as PUT answered it, back into a PUT body (the answer adds fields a body may not have). */
function withoutMeta(tool: Record<string, unknown>): Record<string, unknown> {
  const { kind: _k, version: _v, updated_at: _u, dialect_problems: _d, ...definition } = tool;
  return definition;
}
