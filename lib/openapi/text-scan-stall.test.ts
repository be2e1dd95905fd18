// Names and URLs a document writes are scanned in linear time: each of these shapes (a few tens of
// KiB, well inside a document's 16 MiB) made one of the name or URL regexes backtrack quadratically.
import { describe, expect, it } from "vitest";
import { loadOpenApiDocument } from "./load-openapi-document";
import { normalizeOperationName } from "./operation-tool-name";
import { toDataTools } from "./to-data-tools";

const N = 40_000;
const LONG = 80_000;

async function timedConvert(doc: unknown) {
  const started = performance.now();
  const loaded = await loadOpenApiDocument(doc);
  if (!loaded.ok) throw new Error(loaded.reason);
  const result = toDataTools(loaded, { importName: "t" });
  return { result, ms: performance.now() - started };
}

const op = (extra: Record<string, unknown> = {}) => ({ responses: { "200": { description: "ok" } }, ...extra });

describe("scanning what a hostile document names", () => {
  it("a server URL of unclosed braces, shared by many operations", async () => {
    const paths = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`/p${i}`, { get: op() }]));
    const { result, ms } = await timedConvert({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      servers: [{ url: `https://api.example.com/${"{".repeat(N)}` }],
      paths,
    });
    expect(ms).toBeLessThan(2_000);
    // Each operation is then an errors entry: the URL is over the guard's 8 KiB.
    expect(result.tools).toEqual([]);
    expect(result.errors).toHaveLength(50);
    expect(result.errors[0]?.error).toContain("request.url is refused by the egress guard");
  });

  it("a server URL whose variables are set, or left, as the regex did", async () => {
    const { result } = await timedConvert({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      servers: [{ url: "https://{host}.example.com/{}{v}/{{x}}", variables: { host: { default: "api" } } }],
      paths: { "/a": { get: op() } },
    });
    expect(result.tools).toEqual([]);
    expect(result.errors[0]?.error).toContain("the server URL 'https://api.example.com/{}{v}/{{x}}' has a variable");
  });

  it("a parameter name and a security scheme name of long underscore runs", async () => {
    const long = `a${"_".repeat(LONG)}-a`;
    const { result, ms } = await timedConvert({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      components: { securitySchemes: { [long]: { type: "apiKey", in: "header", name: "X-Key" } } },
      security: [{ [long]: [] }],
      paths: { "/a": { get: op({ parameters: [{ name: long, in: "query", schema: { type: "string" } }] }) } },
    });
    expect(ms).toBeLessThan(2_000);
    expect(result.tools).toHaveLength(1);
    expect(Object.keys(result.tools[0]?.definition.parameters.properties ?? {})).toEqual([`a${"_".repeat(LONG + 1)}a`]);
    expect(result.secrets[0]?.secret).toBe(`t_a${"_".repeat(LONG + 1)}a`);
  });

  it("an operationId of capital letters", () => {
    const started = performance.now();
    expect(normalizeOperationName("A".repeat(LONG))).toBe("a".repeat(64));
    expect(performance.now() - started).toBeLessThan(500);
    const cases: [string, string][] = [
      ["getPetById", "get_pet_by_id"],
      ["HTTPServerURL", "http_server_url"],
      ["parseHTTPResponse2XX", "parse_http_response2_xx"],
      ["aBCd", "a_b_cd"],
      ["repos/get-content", "repos_get_content"],
      ["__x__", "x"],
      ["9lives", "op_9lives"],
    ];
    for (const [id, name] of cases) expect({ id, name: normalizeOperationName(id) }).toEqual({ id, name });
  });
});
