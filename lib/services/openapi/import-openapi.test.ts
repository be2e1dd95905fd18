// The import against real, public OpenAPI documents shipped by npm packages (none written here):
// @readme/oas-examples (Petstore 3.0, 3.1, Swagger 2.0, security), @octokit/openapi (GitHub's REST API).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { getTool, listToolsInGroup } from "@/db/queries/tools";
import { operatorPrincipal } from "@/lib/access/principal";
import { STRICT_POSTURE } from "@/lib/egress";
import { DomainError } from "@/lib/errors";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { allowlistPosture, DEV_POSTURE } from "@/test/support/egress-doubles";
import { startLoopbackServer, type LoopbackServer } from "@/test/support/loopback-server";
import { putAgent } from "@/lib/services/agents/agents";
import { importOpenApi, type ImportOpenApiDeps } from "./import-openapi";

const require = createRequire(import.meta.url);
const examples = (path: string) => require.resolve(`@readme/oas-examples/${path}`);
const text = (path: string) => readFileSync(examples(path), "utf8");
const json = (path: string) => JSON.parse(text(path)) as Record<string, unknown>;
const GITHUB = require.resolve("@octokit/openapi/generated/api.github.com.json");

const OPERATOR = operatorPrincipal("api");
let servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

function setup(over: Partial<ImportOpenApiDeps> = {}) {
  const db = openDb(":memory:");
  const deps: ImportOpenApiDeps = { posture: DEV_POSTURE, secrets: staticSecrets({ pets_api_key: "k" }), ...over };
  return { db, run: (body: unknown) => importOpenApi(db, OPERATOR, body, deps) };
}

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

describe("importOpenApi: real documents", () => {
  it("Petstore 3.0 (JSON): 20 tools, no errors, and tools field by field", async () => {
    const { db, run } = setup();
    const result = await run({ name: "pets", document: json("3.0/json/petstore.json") });
    expect(result.created).toHaveLength(20);
    expect(result.errors).toStrictEqual([]);
    expect(result.group).toBe("openapi:pets");
    expect(result.document).toStrictEqual({ title: "Swagger Petstore", version: "3.0.0", operations: 20 });
    expect(result.secrets).toStrictEqual([
      { name: "pets_api_key", scheme: "api_key", header: "api_key", provisioned: true },
      { name: "pets_petstore_auth", scheme: "petstore_auth", header: "Authorization", provisioned: false },
    ]);
    expect((await getTool(db, "get_pet_by_id"))?.definition).toStrictEqual({
      name: "get_pet_by_id",
      description: "Find pet by ID\n\nReturns a single pet",
      parameters: {
        type: "object",
        properties: { petId: { type: "integer", description: "ID of pet to return" } },
        required: ["petId"],
      },
      request: {
        method: "GET",
        url: "http://petstore.swagger.io/v2/pet/{{petId}}",
        headers: { api_key: "{{secret.pets_api_key}}" },
        query: {},
      },
      response: { extract: "body_raw" },
      secret_headers: ["api_key"],
      side_effect: false,
      timeout: 30,
      group: "openapi:pets",
      tags: [],
    });
    const find = (await getTool(db, "find_pets_by_status"))?.definition;
    expect(find?.request.query).toStrictEqual({ status: "{{status}}" });
    expect(find?.parameters.properties).toMatchObject({ status: { type: "array", items: { type: "string" } } });
    const add = (await getTool(db, "add_pet"))?.definition;
    expect(add?.side_effect).toBe(true);
    expect(add?.request.body).toStrictEqual({
      category: "{{category}}",
      name: "{{name}}",
      photoUrls: "{{photoUrls}}",
      tags: "{{tags}}",
      status: "{{status}}",
    });
    expect(add?.parameters.required).toStrictEqual(["name", "photoUrls"]);
    expect(add?.request.headers).toStrictEqual({ Authorization: "Bearer {{secret.pets_petstore_auth}}" });
    // `id` is readOnly in the Pet model: a client never sends it.
    expect(Object.keys(add?.parameters.properties as object)).not.toContain("id");
  });

  it("Petstore 3.1 as YAML text gives the same 20 tools", async () => {
    const { db, run } = setup();
    const result = await run({ name: "pets", document: text("3.1/yaml/petstore.yaml") });
    expect([result.created.length, result.errors.length]).toStrictEqual([20, 0]);
    expect(result.document.version).toBe("3.1.0");
    expect((await getTool(db, "delete_pet"))?.definition.request).toMatchObject({
      method: "DELETE",
      url: "http://petstore.swagger.io/v2/pet/{{petId}}",
    });
  });

  it("Swagger 2.0 is converted: server from host/basePath/schemes, body parameter as the JSON body", async () => {
    const { db, run } = setup();
    const result = await run({ name: "pets", document: json("2.0/json/petstore.json") });
    expect([result.created.length, result.errors.length]).toStrictEqual([20, 0]);
    expect(result.document.version).toBe("swagger 2.0");
    const place = (await getTool(db, "place_order"))?.definition;
    expect(place?.request.url).toBe("http://petstore.swagger.io/v2/store/order");
    expect(place?.request.body).toMatchObject({ petId: "{{petId}}", quantity: "{{quantity}}" });
  });

  it("security schemes: headers get secret references; an API key in the query or a cookie is an error", async () => {
    const { db, run } = setup();
    const result = await run({ name: "sec", document: json("3.0/json/security.json"), auth: { basic: "my_basic" } });
    expect([result.created.length, result.errors.length]).toStrictEqual([13, 2]);
    expect(result.errors).toStrictEqual([
      {
        tool: "get_anything_api_key",
        operation: "GET /anything/apiKey",
        error:
          "security: scheme 'apiKey_query' puts an API key in the query parameter 'apiKey': secrets are only allowed in headers",
      },
      {
        tool: "post_anything_api_key",
        operation: "POST /anything/apiKey",
        error: "security: scheme 'apiKey_cookie' puts an API key in a cookie: secrets are only allowed in headers",
      },
    ]);
    expect(result.secrets.map((s) => s.name)).toContain("my_basic");
    const basic = (await getTool(db, "post_anything_basic"))?.definition;
    expect(basic?.request.headers).toStrictEqual({ Authorization: "Basic {{secret.my_basic}}" });
    expect(basic?.secret_headers).toStrictEqual(["Authorization"]);
  });

  it("GitHub's REST API: 1223 operations, 1153 tools, 70 errors naming operation and construct", async () => {
    const { db, run } = setup();
    const result = await run({ name: "github", document: readFileSync(GITHUB, "utf8") });
    expect(result.document.operations).toBe(1223);
    expect([result.created.length, result.errors.length]).toStrictEqual([1153, 70]);
    expect(result.errors).toContainEqual({
      tool: "gists_create",
      operation: "POST /gists",
      operation_id: "gists/create",
      error:
        "request body: parameters.properties.body.properties.public: 'oneOf' is not supported (the safe subset has no alternatives; not every provider accepts them)",
    });
    const content = (await getTool(db, "repos_get_content"))?.definition;
    expect(content?.request).toStrictEqual({
      method: "GET",
      url: "https://api.github.com/repos/{{owner}}/{{repo}}/contents/{{path}}",
      headers: {},
      query: { ref: "{{ref}}" },
    });
    expect(content?.parameters.required).toStrictEqual(["owner", "repo", "path"]);
  }, 60_000);
});

describe("importOpenApi: re-import, selection, refusals", () => {
  it("re-import is idempotent; a narrower selection removes the operations it no longer has", async () => {
    const { db, run } = setup();
    const doc = () => json("3.0/json/petstore.json");
    await run({ name: "pets", document: doc() });
    const again = await run({ name: "pets", document: doc() });
    expect([again.created, again.removed, again.unchanged.length, again.updated.length]).toStrictEqual([
      [],
      [],
      20,
      20,
    ]);
    const narrowed = await run({ name: "pets", document: doc(), operations: ["getPetById", "POST /pet", "nope"] });
    expect(narrowed.removed).toHaveLength(18);
    expect(narrowed.errors).toStrictEqual([
      { tool: null, operation: "nope", error: "operations: 'nope' matches no operation of the document" },
    ]);
    expect((await listToolsInGroup(db, "openapi:pets")).map((t) => t.name)).toStrictEqual(["add_pet", "get_pet_by_id"]);
  });

  it("reports what the providers of agents offered the tools would reject", async () => {
    const { db, run } = setup();
    await putAgent(db, OPERATOR, "gem", {
      model: {
        provider: "openai-compatible",
        model: "g",
        base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
      },
      tools_allow_groups: ["openapi:gh"],
    });
    const result = await run({ name: "gh", document: readFileSync(GITHUB, "utf8"), operations: ["gists/update"] });
    expect(result.created).toStrictEqual(["gists_update"]);
    expect(result.dialect_problems.map((p) => `${p.agent} ${p.tool} ${p.path}`)).toContain(
      "gem gists_update parameters.properties.files",
    );
  });

  it("server replaces the document's server URL whole", async () => {
    const { db, run } = setup();
    await run({ name: "pets", document: json("3.0/json/petstore.json"), server: "http://127.0.0.1:9/api" });
    expect((await getTool(db, "get_pet_by_id"))?.definition.request.url).toBe("http://127.0.0.1:9/api/pet/{{petId}}");
  });

  it("never overwrites a tool of another group", async () => {
    const { db, run } = setup();
    await run({ name: "a", document: json("3.0/json/petstore.json") });
    const b = await run({ name: "b", document: json("3.0/json/petstore.json") });
    expect(b.created).toStrictEqual([]);
    expect(b.errors[0]?.error).toBe("'update_pet' is already a tool of group 'openapi:a'; it was not overwritten");
    expect(await listToolsInGroup(db, "openapi:b")).toStrictEqual([]);
  });

  it.each([
    [{ document: "openapi: [unclosed" }, "the document does not parse: not valid YAML"],
    [
      {
        document: {
          openapi: "3.0.0",
          info: { title: "x", version: "1" },
          paths: { "/x": { get: { responses: {} } } },
          components: { schemas: { a: { $ref: "#/nope" } } },
        },
      },
      "the document does not parse:",
    ],
    [{ document: { swagger: "1.2" } }, "Swagger version 1.2 is not supported"],
    [{ document: { hello: 1 } }, "neither an 'openapi' nor a 'swagger' version field"],
    [{ document: "just text" }, "not an object"],
    [{}, "give exactly one of url"],
    [{ url: "ftp://x/y", document: "a" }, "give exactly one of url"],
    [{ url: "file:///etc/passwd" }, "url must be http/https"],
    [{ document: "a", server: "javascript:alert(1)" }, "server must be http/https"],
    [{ document: "a", extra: 1 }, "extra"],
  ])("refuses %j with 422, writing nothing", async (body, message) => {
    const { db, run } = setup();
    const e = await refusal(run({ name: "x", ...body }));
    expect(e.code).toBe("validation_failed");
    expect(e.message).toContain(message);
    expect(await listToolsInGroup(db, "openapi:x")).toStrictEqual([]);
  });

  it("a document over the size cap is 422 naming the cap", async () => {
    const { run } = setup({ limits: { maxDocumentBytes: 1024 } });
    const e = await refusal(run({ name: "x", document: text("3.0/json/petstore.json") }));
    expect(e.message).toMatch(/^the document is \d+ bytes, over the limit of 1 KiB per import$/);
  });

  it("refuses a document whose $refs or YAML aliases would inline into billions of nodes, at once", async () => {
    const { run } = setup();
    // Each level refers to the one below nine times: 9^12 nodes once inlined, a few KiB as written.
    const schemas: Record<string, unknown> = { a0: { type: "string" } };
    let yaml = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\nx-a0: &a0 {type: string}\n";
    for (let i = 1; i <= 12; i++) {
      const props = Object.fromEntries(
        Array.from({ length: 9 }, (_, j) => [`p${j}`, { $ref: `#/components/schemas/a${i - 1}` }]),
      );
      schemas[`a${i}`] = { type: "object", properties: props };
      yaml += `x-a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(", ")}]\n`;
    }
    const started = performance.now();
    for (const document of [
      { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, components: { schemas } },
      `${yaml}paths: {}\n`,
    ]) {
      const e = await refusal(run({ name: "bomb", document }));
      expect(e.message).toBe(
        "the document expands to more than 10000000 nodes once its $refs and YAML aliases are inlined, over the limit of one import",
      );
    }
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("refuses a document nested too deeply, as written or through a chain of $refs, with a 422 naming it", async () => {
    const { run } = setup();
    const head = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-deep":`;
    // Posted as text (or fetched), the document skips the API body's depth check; walking it overflowed the stack (500).
    const nested = `${head}${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    // Each schema refers to the next: a shallow document that inlines 20,000 levels deep.
    const schemas: Record<string, unknown> = { s20000: { type: "string" } };
    for (let i = 0; i < 20_000; i++)
      schemas[`s${i}`] = { type: "array", items: { $ref: `#/components/schemas/s${i + 1}` } };
    const chained = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
    for (const document of [nested, JSON.stringify(chained)]) {
      const e = await refusal(run({ name: "deep", document }));
      expect(e.code).toBe("validation_failed");
      expect(e.message).toBe(
        "the document nests more than 1000 levels deep once its $refs and YAML aliases are inlined, over the limit of one import",
      );
    }
  });

  it("never fetches an external $ref itself (the operation using it is an error)", async () => {
    const backend = await startLoopbackServer();
    servers.push(backend);
    const { run } = setup();
    const result = await run({
      name: "ext",
      server: "http://127.0.0.1:9",
      document: {
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: {
          "/a": {
            post: {
              operationId: "a",
              requestBody: { content: { "application/json": { schema: { $ref: `${backend.origin}/s.json` } } } },
              responses: {},
            },
          },
          "/b": { get: { operationId: "b", parameters: [{ $ref: "/etc/passwd#/x" }], responses: {} } },
        },
      },
    });
    expect(backend.requests).toStrictEqual([]);
    expect(result.errors.map((e) => e.tool)).toStrictEqual(["a", "b"]);
    expect(result.errors[0]?.error).toContain("could not be inlined (circular or external)");
  });

  it("fetches the document through the guard: loopback is refused by default, nothing sent", async () => {
    const backend = await startLoopbackServer((_req, res) => res.end(text("3.0/json/petstore.json")));
    servers.push(backend);
    const { run } = setup({ posture: STRICT_POSTURE });
    const e = await refusal(run({ name: "x", url: `${backend.origin}/openapi.json` }));
    expect(e.code).toBe("egress_blocked");
    expect(e.message).toMatch(/^destination blocked: /);
    expect(backend.requests).toStrictEqual([]);
  });

  it("checks every redirect hop: a redirect to a host the allowlist does not name is refused, nothing sent there", async () => {
    const target = await startLoopbackServer((_req, res) => res.end(text("3.0/json/petstore.json")));
    const first = await startLoopbackServer((_req, res) =>
      res.writeHead(302, { location: `${target.origin}/openapi.json` }).end(),
    );
    servers.push(target, first);
    const { run } = setup({ posture: allowlistPosture(`127.0.0.1:${first.port}`) });
    const e = await refusal(run({ name: "x", url: `${first.origin}/openapi.json` }));
    expect(e.code).toBe("egress_blocked");
    expect(first.requests).toHaveLength(1);
    expect(target.requests).toStrictEqual([]);
  });

  it("fetches when the posture allows it, resolving a relative server URL against the document's", async () => {
    const doc = json("3.0/json/petstore.json");
    doc.servers = [{ url: "/v2" }];
    const backend = await startLoopbackServer((_req, res) => res.end(JSON.stringify(doc)));
    servers.push(backend);
    const { db, run } = setup();
    const result = await run({ name: "x", url: `${backend.origin}/specs/openapi.json` });
    expect(result.created).toHaveLength(20);
    expect((await getTool(db, "get_pet_by_id"))?.definition.request.url).toBe(`${backend.origin}/v2/pet/{{petId}}`);
  });

  it("a fetched document over the cap is 422; an HTTP error is 502", async () => {
    const backend = await startLoopbackServer((req, res) => {
      if (req.url === "/big") res.end("x".repeat(5000));
      else res.writeHead(404).end("no");
    });
    servers.push(backend);
    const { run } = setup({ limits: { maxDocumentBytes: 1024 } });
    const big = await refusal(run({ name: "x", url: `${backend.origin}/big` }));
    expect([big.code, big.message]).toStrictEqual([
      "validation_failed",
      `the document at ${backend.origin}/big is too large: the document is larger than 1 KiB (the limit of one import)`,
    ]);
    const missing = await refusal(run({ name: "x", url: `${backend.origin}/missing` }));
    expect([missing.code, missing.message]).toStrictEqual([
      "upstream_failed",
      `could not fetch the document at ${backend.origin}/missing: the document URL answered HTTP 404`,
    ]);
  });
});
