import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listMalformedPlaceholders, listPlaceholders } from "@/lib/tools/placeholders";
import { checkSafeSchema } from "@/lib/tools/safe-schema";
import type { DataToolDefinition } from "@/lib/tools/types";
import { validateToolDefinition, type ToolWritePath } from "@/lib/tools/validate-definition";

const writePaths: ToolWritePath[] = ["api", "manifest", "config", "mcp"];
const env = { API_URL: "https://api.example.com", REGION: "eu", INSIKA_API_TOKEN: "t0k3n" };
const reservedNames = new Set(["tool_search", "edit_file"]);

// Mostly-plausible pieces mixed with garbage, so both the success path and
// every refusal path are exercised.
const garbage = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ maxLength: 12 }));

// Definitions are generated valid-ish, then 0-2 mutations put a wrong value
// somewhere: each run then has a few ways to fail instead of dozens, so both
// acceptance and every refusal path get exercised.
const templatePiece = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom("a", "/", "-", "?x=", "{{q}}", "{{ n }}", "{{ctx.chat_id}}") },
  {
    weight: 1,
    arbitrary: fc.constantFrom("{{env.REGION}}", "{{secret.k}}", "{{ctx.nope}}", "{{x.y}}", "{{unknown}}", "{{", " "),
  },
);
const template = fc.array(templatePiece, { maxLength: 4 }).map((p) => p.join(""));
const parameters = fc.constantFrom(
  "q | string | required\nn | integer | optional | count\npayload | array:string | optional",
  {
    type: "object",
    properties: { q: { type: "string" }, n: { type: "integer" }, payload: { type: "object" } },
    required: ["q"],
  },
  JSON.stringify({
    type: "object",
    properties: { q: { type: "string" }, n: { type: "number" }, payload: { type: "array", items: { type: "string" } } },
  }),
);
const body = fc.oneof(
  fc.dictionary(fc.constantFrom("a", "b", "__proto__"), fc.oneof(template, fc.integer(), fc.boolean()), { maxKeys: 3 }),
  fc.array(template, { maxLength: 2 }),
  fc.constantFrom('{"q": "{{q}}", "n": "{{n}}"}', '"{{payload}}"', "{{payload}}", "null", ""),
);
const request = fc
  .record(
    {
      method: fc.constantFrom("GET", "get", "POST", "put", "PATCH", "DELETE", "head"),
      url: fc.oneof(
        template.map((t) => `https://api.example.com/s/${t}`),
        fc.constant("{{env.API_URL}}/x"),
      ),
      headers: fc.dictionary(fc.constantFrom("Authorization", "X-Key", "Accept"), template, { maxKeys: 3 }),
      query: fc.dictionary(fc.constantFrom("q", "limit"), template, { maxKeys: 2 }),
      body,
      mcp: fc.boolean(),
      secret: fc.boolean(),
    },
    { requiredKeys: ["method", "url", "mcp", "secret"] },
  )
  .map(({ mcp, secret, ...r }) => {
    const out: Record<string, unknown> = { ...r };
    if (mcp) Object.assign(out, { method: "POST", protocol: "mcp", mcp_tool: "get-sum", body: undefined });
    else if (/^(get|head)$/i.test(String(r.method))) delete out.body;
    if (secret) out.headers = { ...(r.headers ?? {}), Authorization: "Bearer {{secret.k}}" };
    return out;
  });
const haltWhen = fc.record(
  {
    json_path: fc.constantFrom("tool_result.status", "$", "$.items[0]['id']"),
    equals: fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean()), { minLength: 1, maxLength: 3 }),
    say: fc.oneof(
      fc.record({ text: fc.constantFrom("CALL_SUPPORT", "Done.") }),
      fc.record({ json_path: fc.constantFrom("$.m", "message") }),
    ),
  },
  { requiredKeys: ["json_path", "equals"] },
);
const validish = fc
  .record(
    {
      name: fc.constantFrom("search", "a_1", "get_sum"),
      description: fc.constantFrom("Search", "d"),
      parameters,
      request,
      response: fc.constantFrom(
        { extract: "body_raw" },
        { extract: "status" },
        { extract: "json_path", path: "$.a[0]" },
        {},
      ),
      side_effect: fc.boolean(),
      timeout: fc.oneof(fc.integer({ min: 1, max: 300 }), fc.double({ min: 0.5, max: 300, noNaN: true })),
      group: fc.constantFrom("g", "  ", "mcp:x"),
      tags: fc.uniqueArray(fc.constantFrom("a", "b", " c "), { maxLength: 3 }),
      halt_when: haltWhen,
    },
    { requiredKeys: ["name", "description", "request"] },
  )
  .map((d) => {
    const auth = (d.request.headers as Record<string, string> | undefined)?.Authorization;
    return auth?.includes("{{secret.") ? { ...d, secret_headers: ["authorization"] } : d;
  });

const mutationPath = fc.constantFrom(
  "name",
  "description",
  "parameters",
  "request",
  "request.method",
  "request.url",
  "request.headers",
  "request.headers.X-Key",
  "request.query.q",
  "request.body",
  "request.protocol",
  "request.mcp_tool",
  "request.extra",
  "response",
  "response.extract",
  "response.path",
  "secret_headers",
  "side_effect",
  "timeout",
  "group",
  "tags",
  "halt_when",
  "halt_when.json_path",
  "halt_when.equals",
  "halt_when.say",
  "halt_when.say.text",
  "halt_when.say.json_path",
  "extra",
);
const mutationValue = fc.oneof(
  garbage,
  fc.constantFrom(
    "Bad",
    "TRACE",
    "ftp://a.example",
    "https://{{q}}/",
    "{{secret.k}}",
    "{{env.MISSING}}",
    0,
    301,
    "",
    " ",
    [],
    {},
    null,
  ),
);

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let cur: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    const next = cur[key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1] as string] = value;
}

const definition = fc
  .tuple(validish, fc.array(fc.tuple(mutationPath, mutationValue), { maxLength: 2 }))
  .map(([d, mutations]) => {
    const out = structuredClone(d) as Record<string, unknown>;
    for (const [path, value] of mutations) setPath(out, path, value);
    return out;
  });

function allTemplates(tool: DataToolDefinition): string[] {
  const out = [tool.request.url, ...Object.values(tool.request.headers), ...Object.values(tool.request.query)];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(tool.request.body);
  return out;
}

describe("validateToolDefinition (properties)", () => {
  it("never throws for arbitrary values", () => {
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom(...writePaths), (input, writePath) => {
        const r = validateToolDefinition(input, { writePath, env, reservedNames });
        expect(r.ok ? typeof r.tool.name : r.error.length > 0).toBeTruthy();
      }),
      { numRuns: 500 },
    );
  });

  it("never throws for arbitrary JSON objects", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })), (input) => {
        const r = validateToolDefinition(input, { writePath: "api" });
        expect(typeof r.ok).toBe("boolean");
      }),
      { numRuns: 300 },
    );
  });

  it("accepts only sound tools, and a stored tool validates again to itself", () => {
    let accepted = 0;
    fc.assert(
      fc.property(definition, fc.constantFrom(...writePaths), fc.boolean(), (input, writePath, provisioned) => {
        const r = validateToolDefinition(input, {
          writePath,
          env,
          reservedNames,
          isSecretProvisioned: () => provisioned,
        });
        if (!r.ok) {
          expect(r.error.length).toBeGreaterThan(0);
          return;
        }
        accepted += 1;
        const tool = r.tool;
        expect(reservedNames.has(tool.name)).toBe(false);
        expect(checkSafeSchema(tool.parameters)).toEqual([]);
        // Only justified fields: halt_when appears only when the input had one.
        expect("halt_when" in tool).toBe(input.halt_when !== undefined && input.halt_when !== null);
        expect(
          Object.keys(tool).every(
            (k) =>
              k in input ||
              ["parameters", "response", "secret_headers", "side_effect", "timeout", "group", "tags"].includes(k),
          ),
        ).toBe(true);
        const declared = new Set(Object.keys(tool.parameters.properties as object));
        for (const text of allTemplates(tool)) {
          expect(listMalformedPlaceholders(text)).toEqual([]);
          for (const p of listPlaceholders(text)) {
            expect(p.kind).not.toBe("env");
            expect(p.kind).not.toBe("unknown");
            if (p.kind === "param") expect(declared.has(p.name)).toBe(true);
          }
        }
        // Stored form is JSON and idempotent under validation (doctor re-validates rows).
        expect(JSON.parse(JSON.stringify(tool))).toEqual(tool);
        const again = validateToolDefinition(JSON.parse(JSON.stringify(tool)), { writePath: "api", reservedNames });
        expect(again).toEqual({ ok: true, tool });
      }),
      { numRuns: 3000 },
    );
    // Guard against a generator that only ever produces refusals.
    expect(accepted).toBeGreaterThan(100);
  });
});
