// Hand-made documents for the edges the real ones do not reach: hostile shapes, parameter and body
// mapping, styles the request builder cannot produce. (Real documents: services/openapi tests.)
import { describe, expect, it } from "vitest";
import { loadOpenApiDocument } from "./load-openapi-document";
import { OPENAPI_IMPORT_LIMITS } from "./openapi-import-limits";
import { toDataTools } from "./to-data-tools";

const base = (paths: unknown, extra: Record<string, unknown> = {}) => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: "https://api.example.com/{v}", variables: { v: { default: "v1" } } }],
  paths,
  ...extra,
});

async function convert(doc: unknown, options: Partial<Parameters<typeof toDataTools>[1]> = {}) {
  const loaded = await loadOpenApiDocument(doc);
  if (!loaded.ok) throw new Error(loaded.reason);
  return toDataTools(loaded, { importName: "t", ...options });
}

describe("toDataTools on hand-made documents", () => {
  it("maps path, query, header parameters and body keys to placeholders; renames what is not a name", async () => {
    const result = await convert(
      base({
        "/items/{item-id}": {
          parameters: [{ name: "item-id", in: "path", required: true, schema: { type: "string" } }],
          patch: {
            operationId: "updateItem",
            summary: "Update",
            parameters: [
              { name: "X-Request-Id", in: "header", schema: { type: "string" } },
              { name: "dry_run", in: "query", schema: { type: "boolean" } },
              { name: "Accept", in: "header", schema: { type: "string" } },
              { name: "session", in: "cookie", schema: { type: "string" } },
            ],
            requestBody: {
              required: true,
              content: {
                "application/merge-patch+json": {
                  schema: {
                    type: "object",
                    required: ["dry_run"],
                    properties: { dry_run: { type: "string" }, name: { type: ["string", "null"] } },
                  },
                },
              },
            },
          },
        },
      }),
    );
    expect(result.errors).toStrictEqual([]);
    const tool = result.tools[0]!.definition;
    expect(tool.request).toStrictEqual({
      method: "PATCH",
      url: "https://api.example.com/v1/items/{{item_id}}",
      headers: { "X-Request-Id": "{{X_Request_Id}}" },
      query: { dry_run: "{{dry_run}}" },
      body: { dry_run: "{{body_dry_run}}", name: "{{name}}" },
    });
    expect(tool.parameters).toStrictEqual({
      type: "object",
      properties: {
        item_id: { type: "string" },
        X_Request_Id: { type: "string" },
        dry_run: { type: "boolean" },
        body_dry_run: { type: "string" },
        name: { type: "string" },
      },
      required: ["item_id", "body_dry_run"],
    });
  });

  it("a list, scalar or free-form body is one `body` argument", async () => {
    const result = await convert(
      base({
        "/tags": {
          put: {
            operationId: "setTags",
            requestBody: { content: { "application/json": { schema: { type: "array", items: { type: "string" } } } } },
          },
        },
      }),
    );
    expect(result.tools[0]!.definition.request.body).toBe("{{body}}");
    expect(result.tools[0]!.definition.parameters.properties).toStrictEqual({
      body: { type: "array", items: { type: "string" } },
    });
  });

  it("names what the request builder cannot produce, per operation", async () => {
    const result = await convert(
      base({
        "/a": {
          get: {
            operationId: "csv",
            parameters: [
              { name: "ids", in: "query", explode: false, schema: { type: "array", items: { type: "integer" } } },
            ],
          },
        },
        "/b": {
          get: {
            operationId: "deep",
            parameters: [
              {
                name: "filter",
                in: "query",
                style: "deepObject",
                schema: { type: "object", properties: { a: { type: "string" } } },
              },
            ],
          },
        },
        "/c": {
          post: { operationId: "upload", requestBody: { required: true, content: { "multipart/form-data": {} } } },
        },
        "/d": { options: { operationId: "opts" } },
        "/e/{id}": { get: { operationId: "noParam" } },
        "/f": { get: { operationId: "cookie", parameters: [{ name: "sid", in: "cookie", required: true }] } },
      }),
    );
    expect(result.tools).toStrictEqual([]);
    expect(result.errors.map((e) => [e.operation, e.error])).toStrictEqual([
      [
        "GET /a",
        "query parameter 'ids' is a list sent as one comma-separated value (explode: false), which the request builder does not produce (it repeats the parameter)",
      ],
      ["GET /b", "query parameter 'filter' is an object (style deepObject), which a query value cannot carry"],
      ["POST /c", "request body is multipart/form-data: only JSON request bodies are built"],
      ["OPTIONS /d", "method OPTIONS is not supported (a data tool sends GET, HEAD, POST, PUT, PATCH, DELETE)"],
      ["GET /e/{id}", "path segment '{id}' has no path parameter"],
      ["GET /f", "cookie parameter 'sid' is required, and a data tool sends no cookies"],
    ]);
  });

  it("survives hostile shapes: odd keys, wrong types, a __proto__ path, a huge description", async () => {
    const doc = JSON.parse(
      JSON.stringify(
        base({
          "/__proto__": { get: { operationId: "proto", description: "d".repeat(10_000) } },
          "/x": { get: "not an operation", post: { operationId: 42, parameters: "nope", requestBody: 7 } },
          "/y": null,
        }),
      ),
    );
    const result = await convert(doc);
    expect(result.errors).toStrictEqual([]);
    expect(result.tools.map((t) => [t.operation, t.definition.name])).toStrictEqual([
      ["GET /__proto__", "proto"],
      ["POST /x", "post_x"],
    ]);
    expect(result.tools[0]!.definition.description).toHaveLength(2000);
    expect(({} as Record<string, unknown>).get).toBeUndefined();
  });

  it("a relative or missing server needs `server` unless the document came from a URL", async () => {
    const doc = () => base({ "/p": { get: { operationId: "p" } } }, { servers: [{ url: "/api" }] });
    expect((await convert(doc())).errors[0]?.error).toBe(
      "the server URL '/api' is relative and the document was not fetched from a URL: give 'server'",
    );
    expect(
      (await convert(doc(), { documentUrl: "https://h.example/specs/o.json" })).tools[0]!.definition.request.url,
    ).toBe("https://h.example/api/p");
    expect((await convert(doc(), { server: "https://other.example/base/" })).tools[0]!.definition.request.url).toBe(
      "https://other.example/base/p",
    );
    const none = base({ "/p": { get: { operationId: "p" } } }, { servers: undefined });
    expect((await convert(none)).errors[0]?.error).toBe("the document names no server URL: give 'server'");
  });

  it("Swagger 2.0: form bodies and comma-separated lists are named; multi lists and basic auth convert", async () => {
    const result = await convert({
      swagger: "2.0",
      info: { title: "s", version: "1" },
      host: "api.example.com",
      basePath: "/v1",
      schemes: ["http", "https"],
      securityDefinitions: { basic: { type: "basic" }, q: { type: "apiKey", in: "query", name: "key" } },
      security: [{ basic: [] }],
      paths: {
        "/upload": {
          post: {
            operationId: "upload",
            consumes: ["multipart/form-data"],
            parameters: [{ name: "file", in: "formData", type: "file", required: true }],
          },
        },
        "/csv": {
          get: {
            operationId: "csv",
            parameters: [{ name: "ids", in: "query", type: "array", items: { type: "integer" } }],
          },
        },
        "/multi": {
          get: {
            operationId: "multi",
            security: [{ q: [] }, { basic: [] }],
            parameters: [
              { name: "ids", in: "query", type: "array", collectionFormat: "multi", items: { type: "integer" } },
            ],
          },
        },
      },
    });
    expect(result.errors.map((e) => e.error)).toStrictEqual([
      "request body is multipart/form-data: only JSON request bodies are built",
      "query parameter 'ids' is a list sent as collectionFormat csv (explode: false), which the request builder does not produce (it repeats the parameter)",
    ]);
    expect(result.tools[0]!.definition.request).toStrictEqual({
      method: "GET",
      url: "https://api.example.com/v1/multi",
      headers: { Authorization: "Basic {{secret.t_basic}}" },
      query: { ids: "{{ids}}" },
    });
  });
});

describe("toDataTools: the import's pattern budget", () => {
  it("patterns of many operations, each under its schema's budget, held to the import's budget", async () => {
    const schema = { type: "string", pattern: "a{0,999}".repeat(2) }; // ~4,000 instructions once expanded
    const paths = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `/p${String(i).padStart(2, "0")}`,
        { get: { parameters: [{ name: "q", in: "query", schema }], responses: {} } },
      ]),
    );
    const result = await convert({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      paths,
    });
    const fits = Math.floor(OPENAPI_IMPORT_LIMITS.maxImportPatternSize / 3996);
    expect(result.tools).toHaveLength(fits);
    expect(result.errors[0]?.error).toBe(
      `its patterns (about 3996 regex instructions once expanded) would take the import's patterns past ${OPENAPI_IMPORT_LIMITS.maxImportPatternSize}, the limit of one import`,
    );
  });
});
