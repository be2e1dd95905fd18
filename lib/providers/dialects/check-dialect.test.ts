import { describe, expect, it } from "vitest";
import { checkDialect } from "./check-dialect";
import { compileForDialect } from "./compile-for-dialect";
import { DIALECTS, dialectFor, type Dialect } from "./dialect";
import { mapStrictArguments } from "./map-arguments";

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

/** The schemas of the table, each a shape operators and imports really produce. */
const SCHEMAS: Record<string, unknown> = {
  closedAllRequired: obj({ q: { type: "string" } }, { required: ["q"], additionalProperties: false }),
  optionalProperty: obj({ q: { type: "string" }, limit: { type: "integer" } }, { required: ["q"] }),
  openMap: obj({ filters: { type: "object", properties: {}, additionalProperties: true } }),
  closedNested: obj(
    { f: obj({ a: { type: "string" } }, { required: ["a"], additionalProperties: false }) },
    { required: ["f"], additionalProperties: false },
  ),
  anyOf: obj(
    { v: { anyOf: [{ type: "string" }, { type: "number" }] } },
    { required: ["v"], additionalProperties: false },
  ),
  ref: obj(
    { v: { $ref: "#/$defs/V" } },
    { required: ["v"], additionalProperties: false, $defs: { V: { type: "string" } } },
  ),
  emailFormat: obj({ e: { type: "string", format: "email" } }, { required: ["e"], additionalProperties: false }),
  uriFormat: obj({ u: { type: "string", format: "uri" } }, { required: ["u"], additionalProperties: false }),
  lengthBounds: obj(
    { s: { type: "string", minLength: 1, maxLength: 5 } },
    { required: ["s"], additionalProperties: false },
  ),
  typeList: obj({ v: { type: ["string", "null"] } }, { required: ["v"], additionalProperties: false }),
  topArray: { type: "array", items: { type: "string" } },
};

/** Expected verdict: "ok", or a fragment of the first problem. */
const TABLE: Record<string, Record<Dialect, string>> = {
  closedAllRequired: {
    "openai-strict": "ok",
    openai: "ok",
    anthropic: "ok",
    gemini: "parameters: Gemini does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  optionalProperty: {
    "openai-strict": "parameters: OpenAI strict mode requires additionalProperties: false",
    openai: "ok",
    anthropic: "ok",
    gemini: "ok",
    "openai-compatible": "ok",
  },
  openMap: {
    "openai-strict": "requires additionalProperties: false",
    openai: "ok",
    anthropic: "ok",
    gemini: "parameters.properties.filters: Gemini does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  closedNested: {
    "openai-strict": "ok",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  anyOf: {
    "openai-strict": "ok",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  ref: {
    "openai-strict": "ok",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  emailFormat: {
    "openai-strict": "ok",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  uriFormat: {
    "openai-strict": "parameters.properties.u: OpenAI strict mode does not accept the format 'uri'",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  lengthBounds: {
    "openai-strict": "parameters.properties.s: OpenAI strict mode does not accept minLength",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  typeList: {
    "openai-strict": "ok",
    openai: "ok",
    anthropic: "ok",
    gemini: "does not accept additionalProperties",
    "openai-compatible": "ok",
  },
  topArray: {
    "openai-strict": "requires the top level to be an object",
    openai: "requires the top level to be an object",
    anthropic: "Anthropic requires the top level to be an object",
    gemini: "Gemini requires the top level",
    "openai-compatible": "requires the top level",
  },
};

describe("checkDialect: schemas × dialects", () => {
  for (const [name, row] of Object.entries(TABLE)) {
    for (const dialect of DIALECTS) {
      it(`${name} × ${dialect}: ${row[dialect]}`, () => {
        const problems = checkDialect(SCHEMAS[name], dialect);
        if (row[dialect] === "ok") expect(problems).toStrictEqual([]);
        else expect(problems[0]?.message).toContain(row[dialect]);
      });
    }
  }

  it("names every problem of Gemini's dialect with its path and a hint", () => {
    const problems = checkDialect(SCHEMAS.anyOf, "gemini").map((p) => p.message);
    expect(problems).toStrictEqual([
      "parameters: Gemini does not accept additionalProperties (remove it, or set model.strict: true to have Insika compile it for the provider)",
      "parameters.properties.v: Gemini does not accept anyOf (remove it, or set model.strict: true to have Insika compile it for the provider)",
    ]);
    expect(checkDialect(SCHEMAS.uriFormat, "gemini").map((p) => p.problem)).toContain(
      "accepts only the string formats enum and date-time, not 'uri'",
    );
    expect(checkDialect(obj({ o: { type: "object", properties: {} } }), "gemini")[0]?.message).toContain(
      "parameters.properties.o: Gemini requires an object to declare at least one property",
    );
  });

  it("flags nesting deeper than OpenAI strict mode allows", () => {
    let node: Record<string, unknown> = obj(
      { a: { type: "string" } },
      { required: ["a"], additionalProperties: false },
    );
    for (let i = 0; i < 11; i++) node = obj({ n: node }, { required: ["n"], additionalProperties: false });
    expect(checkDialect(node, "openai-strict")[0]?.message).toContain("allows at most 10 levels of nesting");
  });
});

describe("strict compilation", () => {
  it.each(["openai-strict", "anthropic", "gemini"] as const)(
    "a compiled safe-subset schema passes the %s check",
    (dialect) => {
      for (const name of [
        "optionalProperty",
        "openMap",
        "emailFormat",
        "uriFormat",
        "lengthBounds",
        "typeList",
        "closedAllRequired",
      ]) {
        const compiled = compileForDialect(SCHEMAS[name], dialect);
        const left = checkDialect(compiled, dialect).filter((p) => !p.problem.includes("at least one property"));
        expect([name, left]).toStrictEqual([name, []]);
      }
    },
  );

  it("OpenAI strict: optional becomes nullable-and-required, and the stored schema is untouched", () => {
    const stored = structuredClone(SCHEMAS.optionalProperty);
    expect(compileForDialect(stored, "openai-strict")).toStrictEqual({
      type: "object",
      properties: { q: { type: "string" }, limit: { type: ["integer", "null"] } },
      required: ["q", "limit"],
      additionalProperties: false,
    });
    expect(stored).toStrictEqual(SCHEMAS.optionalProperty);
    const withEnum = obj({ c: { type: "string", enum: ["a", "b"] } });
    expect(compileForDialect(withEnum, "openai-strict")).toMatchObject({
      properties: { c: { type: ["string", "null"], enum: ["a", "b", null] } },
    });
  });

  it("maps strict arguments back: nulls of optional properties dropped, nested too; others kept", () => {
    const schema = obj(
      {
        q: { type: "string" },
        limit: { type: "integer" },
        items: { type: "array", items: obj({ a: { type: "string" }, b: { type: "string" } }, { required: ["a"] }) },
      },
      { required: ["q"] },
    );
    expect(mapStrictArguments('{"q":null,"limit":null,"items":[{"a":"x","b":null}],"extra":null}', schema)).toBe(
      '{"q":null,"items":[{"a":"x"}],"extra":null}',
    );
    expect(mapStrictArguments("not json", schema)).toBe("not json");
    expect(mapStrictArguments('{"__proto__":null,"q":"x"}', schema)).toBe('{"__proto__":null,"q":"x"}');
  });
});

describe("dialectFor", () => {
  it.each([
    [{ provider: "openai" }, "openai"],
    [{ provider: "openai", strict: true }, "openai-strict"],
    [{ provider: "anthropic", strict: true }, "anthropic"],
    [{ provider: "openai-compatible", base_url: "http://127.0.0.1:11434/v1" }, "openai-compatible"],
    [{ provider: "openai-compatible", base_url: "http://127.0.0.1:11434/v1", strict: true }, "openai-strict"],
    [{ provider: "openai-compatible", base_url: "https://generativelanguage.googleapis.com/v1beta/openai" }, "gemini"],
    [{ provider: "demo" }, null],
    [{ provider: "scripted" }, null],
  ])("%j -> %s", (model, dialect) => {
    expect(dialectFor(model)).toBe(dialect);
  });
});
