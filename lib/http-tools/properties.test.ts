import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticSecrets } from "@/lib/secrets/secret-source";
import { checkSafeSchema } from "@/lib/tools/safe-schema";
import type { DataToolDefinition, JsonSchema } from "@/lib/tools/types";
import { buildRequest } from "./build-request";
import { executeDataTool } from "./execute-data-tool";
import { DEV_POSTURE } from "@/test/support/egress-doubles";
import { dataTool } from "@/test/support/data-tool";
import { json, startLoopbackServer, type LoopbackServer } from "@/test/support/loopback-server";

const SECRETS = staticSecrets({ key: "prop-secret-value" });

// Any UTF-16 string: lone surrogates, controls, quotes, braces, `{{...}}`.
const modelString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom(
      "{",
      "}",
      '"',
      "\\",
      "/",
      ".",
      "?",
      "#",
      "&",
      "=",
      "%",
      "@",
      ":",
      "\r",
      "\n",
      "\u0000",
      "雪",
      "🎉",
      "{{secret.key}}",
      "{{ctx.tenant}}",
    ),
    maxLength: 12,
  }),
);

// Why buildRequest may refuse a model string; anything else would be a bug.
const LEGIT_REFUSAL = /lone surrogate|'\.' or '\.\.' is refused|must not be empty|CR, LF or NUL|cannot carry/;

// `withNote` adds a header carrying `s`: headers refuse most of Unicode, so
// the wire property leaves it out to send more of its cases.
function stringTool(origin: string, withNote = true): DataToolDefinition {
  return dataTool({
    parameters: { type: "object", properties: { s: { type: "string" }, t: { type: "string" } } },
    request: {
      method: "POST",
      url: `${origin}/api/{{s}}/x?q={{t}}&lit=1`,
      headers: { ...(withNote ? { "X-Note": "n={{s}}" } : {}), Authorization: "{{secret.key}}" },
      query: { m: "{{s}}" },
      body: { exact: "{{s}}", text: 'say "{{s}}" and {{t}}', list: ["{{t}}", 1], deep: { k: "{{s}}{{t}}" } },
    },
    secret_headers: ["Authorization"],
  });
}

describe("property: model strings in placeholders", () => {
  it("never produce an invalid JSON body nor another origin (builder)", () => {
    const origin = "https://api.example.com:8443";
    fc.assert(
      fc.property(modelString, modelString, (s, t) => {
        const r = buildRequest(stringTool(origin), { s, t }, { tenant: "acme" }, SECRETS);
        if (!r.ok) {
          expect(r.error).toMatch(LEGIT_REFUSAL);
          return;
        }
        const url = new URL(r.request.url);
        expect(url.origin).toBe(origin);
        expect(url.pathname.split("/")).toHaveLength(4);
        expect(url.pathname.startsWith("/api/")).toBe(true);
        expect(url.searchParams.get("q")).toBe(t);
        expect(url.searchParams.get("m")).toBe(s);
        expect(url.searchParams.get("lit")).toBe("1");
        expect(decodeURIComponent(url.pathname.split("/")[2] ?? "")).toBe(s);
        expect(JSON.parse(r.request.body ?? "")).toEqual({
          exact: s,
          text: `say "${s}" and ${t}`,
          list: [t, 1],
          deep: { k: `${s}${t}` },
        });
        expect(r.request.headers["X-Note"]).toBe(`n=${s}`);
      }),
      { numRuns: 500 },
    );
  });

  describe("on the wire", () => {
    let backend: LoopbackServer;
    beforeAll(async () => {
      backend = await startLoopbackServer((req, res) => json(res, { ok: true, echoed: req.body.length }));
    });
    afterAll(() => backend.close());

    it("the backend always receives valid JSON at the template's path", async () => {
      const before0 = backend.requests.length;
      await fc.assert(
        fc.asyncProperty(modelString, modelString, async (s, t) => {
          const before = backend.requests.length;
          const r = await executeDataTool(
            stringTool(backend.origin, false),
            { s, t },
            {},
            { posture: DEV_POSTURE, secrets: SECRETS },
          );
          expect(() => JSON.parse(r.content) as unknown).not.toThrow();
          if (!r.ok) {
            expect(r.error).toMatch(LEGIT_REFUSAL);
            expect(backend.requests.length).toBe(before);
            return;
          }
          const got = backend.requests[before];
          expect(got?.url.startsWith("/api/")).toBe(true);
          expect(got?.headers.host).toBe(`127.0.0.1:${backend.port}`);
          expect((JSON.parse(got?.body ?? "") as { exact: unknown }).exact).toBe(s);
        }),
        { numRuns: 60 },
      );
      expect(backend.requests.length - before0).toBeGreaterThan(20);
    });
  });
});

const scalarType = fc.constantFrom("string", "number", "integer", "boolean");
const propertySchema = fc.oneof(
  scalarType.map((type) => ({ type })),
  scalarType.map((type) => ({ type: "array", items: { type } })),
  fc.constant({ type: "object", properties: {} }),
);
const safeSchema = fc
  .dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/), propertySchema, { minKeys: 1, maxKeys: 5 })
  .chain((properties) =>
    fc.subarray(Object.keys(properties)).map((required) => ({ type: "object", properties, required }) as JsonSchema),
  );

// A value valid for a property schema, in the forms a model sends (lossless strings included).
function validValue(schema: { type: string; items?: { type: string } }): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case "string":
      return modelString;
    case "number":
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("1.5", "-2"));
    case "integer":
      return fc.oneof(fc.integer(), fc.integer().map(String));
    case "boolean":
      return fc.oneof(fc.boolean(), fc.constantFrom("true", "false"));
    case "array":
      return fc.array(validValue(schema.items ?? { type: "string" }), { maxLength: 3 });
    default:
      return fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  }
}

// Arguments: mostly valid for the schema, sometimes any JSON object, sometimes anything at all.
const argsFor = (schema: JsonSchema) => {
  const props = schema.properties as Record<string, { type: string; items?: { type: string } }>;
  const names = Object.keys(props);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record(Object.fromEntries(names.map((n) => [n, validValue(props[n] as { type: string })])), {
        requiredKeys: schema.required as string[],
      }),
    },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), fc.jsonValue({ maxDepth: 3 }), {
        maxKeys: 6,
      }),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  );
};

function toolFor(schema: JsonSchema, origin: string): DataToolDefinition {
  const names = Object.keys(schema.properties as object);
  const first = names[0] as string;
  const last = names[names.length - 1] as string;
  return dataTool({
    parameters: schema,
    request: {
      method: "POST",
      url: `${origin}/r/{{${first}}}?a={{${last}}}`,
      headers: { "X-Last": "{{" + last + "}}", "X-Mixed": `v {{${first}}}` },
      query: Object.fromEntries(names.map((n) => [n, `{{${n}}}`])),
      body: Object.fromEntries(
        names.flatMap((n) => [
          [n, `{{${n}}}`],
          [`${n}_text`, `<{{${n}}}>`],
        ]),
      ),
    },
  });
}

describe("property: random arguments against random safe schemas", () => {
  it("the schemas are in the safe subset (so the property exercises the builder)", () => {
    fc.assert(
      fc.property(safeSchema, (schema) => {
        expect(checkSafeSchema(schema)).toEqual([]);
      }),
    );
  });

  it("buildRequest never throws and keeps the origin", () => {
    fc.assert(
      fc.property(
        safeSchema.chain((schema) => fc.tuple(fc.constant(schema), argsFor(schema))),
        ([schema, args]) => {
          const r = buildRequest(toolFor(schema, "https://h.example"), args, {}, SECRETS);
          if (r.ok) {
            expect(new URL(r.request.url).origin).toBe("https://h.example");
            expect(() => JSON.parse(r.request.body ?? "null") as unknown).not.toThrow();
          } else {
            expect(typeof r.error).toBe("string");
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  describe("on the wire", () => {
    let backend: LoopbackServer;
    beforeAll(async () => {
      backend = await startLoopbackServer((req, res) => json(res, { path: req.url }));
    });
    afterAll(() => backend.close());

    it("executeDataTool never throws and always answers JSON text with a record", async () => {
      let sent = 0;
      await fc.assert(
        fc.asyncProperty(
          safeSchema.chain((schema) => fc.tuple(fc.constant(schema), argsFor(schema))),
          async ([schema, args]) => {
            const r = await executeDataTool(
              toolFor(schema, backend.origin),
              args,
              {},
              { posture: DEV_POSTURE, secrets: SECRETS },
            );
            expect(typeof r.ok).toBe("boolean");
            expect(() => JSON.parse(r.content) as unknown).not.toThrow();
            expect(r.record.tool).toBe("test_tool");
            if (r.ok) {
              sent += 1;
              expect(r.record.status).toBe(200);
            } else {
              expect(typeof r.error).toBe("string");
            }
          },
        ),
        { numRuns: 80 },
      );
      // Most generated calls are valid: the property must exercise real sends.
      expect(sent).toBeGreaterThan(20);
    });
  });
});
