import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSafeSchema } from "@/lib/tools/safe-schema";
import { MAX_LISTED_NAMES, validateArguments } from "@/lib/tools/validate-arguments";

const pairsSchema = {
  type: "object",
  properties: {
    query_filter_pairs: {
      type: "array",
      items: {
        type: "object",
        properties: { query: { type: "string" }, filters: { type: "object", properties: {} } },
        required: ["query"],
      },
    },
  },
  required: ["query_filter_pairs"],
};

const scalars = {
  type: "object",
  properties: {
    count: { type: "integer", minimum: 1, maximum: 10 },
    price: { type: "number" },
    flag: { type: "boolean" },
    level: { type: "integer", enum: [1, 2] },
    name: { type: "string", minLength: 2 },
  },
  additionalProperties: false,
};

function errorOf(schema: unknown, args: unknown): string {
  const r = validateArguments(schema, args);
  if (r.ok) throw new Error("expected a refusal");
  return r.error;
}

describe("validateArguments", () => {
  it("accepts arguments the schema allows", () => {
    expect(validateArguments(pairsSchema, { query_filter_pairs: [{ query: "a", filters: { x: 1 } }] })).toEqual({
      ok: true,
    });
  });

  it("names the path of a structural mismatch", () => {
    expect(errorOf(pairsSchema, { query_filter_pairs: ["shoes"] })).toBe(
      "query_filter_pairs[0]: expected an object, got a string",
    );
    expect(errorOf(pairsSchema, { query_filter_pairs: [{ query: 3 }] })).toBe(
      "query_filter_pairs[0].query: expected a string, got a number",
    );
    expect(errorOf(pairsSchema, { query_filter_pairs: { query: "a" } })).toBe(
      "query_filter_pairs: expected an array, got an object",
    );
  });

  it("groups missing required parameters", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } },
      required: ["a", "b"],
    };
    expect(errorOf(schema, {})).toBe("missing required parameter(s): a, b");
    expect(errorOf(pairsSchema, { query_filter_pairs: [{}] })).toBe(
      "query_filter_pairs[0]: missing required parameter(s): query",
    );
  });

  it("refuses unknown properties when additionalProperties is false", () => {
    expect(errorOf(scalars, { count: 2, extra: 1, other: 2 })).toBe("unknown parameter(s): extra, other");
    const nested = {
      type: "object",
      properties: { o: { type: "object", properties: {}, additionalProperties: false } },
    };
    expect(errorOf(nested, { o: { x: 1 } })).toBe("o: unknown field(s): x");
  });

  it("accepts lossless scalar strings without changing the arguments", () => {
    const args = { count: "2", price: "2.5", flag: "true", level: "2" };
    const before = JSON.stringify(args);
    expect(validateArguments(scalars, args)).toEqual({ ok: true });
    expect(JSON.stringify(args)).toBe(before);
    expect(validateArguments(scalars, { flag: "false", price: "-0.25", count: "10" })).toEqual({ ok: true });
  });

  it("applies keywords to the scalar a lossless string stands for", () => {
    expect(errorOf(scalars, { count: "11" })).toBe("count: must be <= 10");
    expect(errorOf(scalars, { level: "3" })).toBe("level: must be one of 1, 2");
  });

  it("refuses strings that are not an exact decimal form", () => {
    expect(errorOf(scalars, { count: "2.5" })).toBe('count: expected an integer, got the string "2.5"');
    expect(errorOf(scalars, { count: "2.0" })).toBe('count: expected an integer, got the string "2.0"');
    for (const bad of [" 2", "0x2", "", "+2", "02", "2.", ".5", "1e3", "Infinity", "NaN"]) {
      expect(validateArguments(scalars, { price: bad }).ok, bad).toBe(false);
    }
    expect(errorOf(scalars, { flag: "yes" })).toBe('flag: expected a boolean, got the string "yes"');
    expect(errorOf(scalars, { flag: "TRUE" })).toMatch(/^flag: expected a boolean/);
    expect(errorOf(scalars, { count: 2.5 })).toBe("count: expected an integer, got the non-integer number 2.5");
  });

  it("keeps structure strict: a scalar is not accepted for a string", () => {
    expect(errorOf(scalars, { name: 12 })).toBe("name: expected a string, got a number");
    expect(errorOf(scalars, { name: "a" })).toBe("name: must be at least 2 characters long");
  });

  it("refuses arguments that are not an object", () => {
    expect(errorOf(scalars, null)).toBe("arguments must be a JSON object, got null");
    expect(errorOf(scalars, [])).toBe("arguments must be a JSON object, got an array");
    expect(errorOf(scalars, "{}")).toBe("arguments must be a JSON object, got a string");
    expect(errorOf(scalars, undefined)).toBe("arguments must be a JSON object, got nothing");
  });

  it("joins at most five problems with '; '", () => {
    const schema = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, { type: "string" }])),
    };
    const error = errorOf(schema, Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`p${i}`, i])));
    expect(error.split("; ")).toHaveLength(5);
    expect(error.startsWith("p0: expected a string, got a number; p1:")).toBe(true);
  });

  it("reports an unsafe or broken schema instead of trusting it", () => {
    expect(errorOf({ type: "object", properties: { x: { oneOf: [] } } }, {})).toMatch(
      /^the tool's parameters schema is not valid: parameters\.properties\.x:/,
    );
    expect(errorOf(null, {})).toBe("the tool's parameters schema is not an object");
  });

  it("ignores $schema and compiles once per schema object", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { a: { type: "string" } },
    };
    expect(validateArguments(schema, { a: "x" })).toEqual({ ok: true });
    // Same object: served from the cache, so a later mutation is not seen.
    (schema.properties.a as { type: string }).type = "integer";
    expect(validateArguments(schema, { a: "x" })).toEqual({ ok: true });
    expect(validateArguments({ ...schema, properties: { a: { type: "integer" } } }, { a: "x" }).ok).toBe(false);
  });

  it("handles __proto__ and odd keys as data", () => {
    const args = JSON.parse('{"__proto__": {"x": 1}, "count": "3"}');
    expect(validateArguments(scalars, args)).toEqual({ ok: false, error: "unknown parameter(s): __proto__" });
    const odd = { type: "object", properties: { "a b": { type: "string" } } };
    expect(errorOf(odd, { "a b": 1 })).toBe('["a b"]: expected a string, got a number');
  });

  it("never throws for random arguments against random safe schemas", () => {
    const leaf = fc.oneof(
      fc.record({ type: fc.constantFrom("string", "number", "integer", "boolean") }),
      fc.record(
        {
          type: fc.constant("integer"),
          minimum: fc.integer(),
          enum: fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
        },
        { requiredKeys: ["type"] },
      ),
      fc.record(
        { type: fc.constant("string"), pattern: fc.constantFrom("^a", "b$", "[0-9]+"), maxLength: fc.nat(5) },
        { requiredKeys: ["type"] },
      ),
    );
    const { node } = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.oneof(
        { maxDepth: 3, depthIdentifier: "schema" },
        leaf,
        fc.record({ type: fc.constant("array"), items: tie("node"), uniqueItems: fc.boolean() }),
        fc
          .dictionary(fc.constantFrom("a", "b", "c", "constructor", "x y"), tie("node"), { maxKeys: 3 })
          .chain((properties) =>
            fc.record({
              type: fc.constant("object"),
              properties: fc.constant(properties),
              required: fc.subarray(Object.keys(properties)),
              additionalProperties: fc.boolean(),
            }),
          ),
      ),
    }));
    const root = node.map((n) => (n.type === "object" ? n : { type: "object", properties: { v: n } }));
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom("2", "2.5", "true", "false", " 2", ""),
      fc.dictionary(fc.constantFrom("a", "b", "c", "v", "constructor", "__proto__"), fc.jsonValue({ maxDepth: 2 }), {
        maxKeys: 4,
      }),
    );
    fc.assert(
      fc.property(root, value, (schema, args) => {
        // The generator must produce schemas of the safe subset, or this only tests the refusal path.
        expect(checkSafeSchema(schema)).toEqual([]);
        const r = validateArguments(schema, args);
        expect(typeof r.ok).toBe("boolean");
        if (!r.ok) {
          expect(r.error.length).toBeGreaterThan(0);
          expect(r.error.split("; ").length).toBeLessThanOrEqual(5);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on pathological values", () => {
    const cyclic: unknown[] = [];
    cyclic.push(cyclic, cyclic);
    const schema = {
      type: "object",
      properties: { l: { type: "array", items: { type: "array", items: { type: "string" } }, uniqueItems: true } },
    };
    expect(typeof validateArguments(schema, { l: cyclic }).ok).toBe("boolean");
    const hostile = {
      get l() {
        throw new Error("boom");
      },
    };
    expect(validateArguments(schema, hostile)).toEqual({ ok: false, error: "arguments could not be validated: boom" });
  });
});

describe("validateArguments: uniqueItems", () => {
  const schemaOf = (items: Record<string, unknown>) => ({
    type: "object",
    properties: { xs: { type: "array", uniqueItems: true, items } },
  });
  const objects = schemaOf({ type: "object" });

  it("names the first repeated item and the one it repeats", () => {
    expect(validateArguments(objects, { xs: [{ a: 1 }, { b: 2 }, { a: 1 }] })).toEqual({
      ok: false,
      error: "xs: must not contain duplicates (items 0 and 2 are equal)",
    });
  });

  it("compares as JSON does: key order does not matter, types and order in arrays do", () => {
    expect(
      validateArguments(objects, {
        xs: [
          { a: 1, b: [1, "x"] },
          { b: [1, "x"], a: 1 },
        ],
      }).ok,
    ).toBe(false);
    const distinct = [{ a: 1 }, { a: "1" }, { a: null }, { a: "null" }, { a: [1, 2] }, { a: [2, 1] }, { a: { b: 1 } }];
    expect(validateArguments(objects, { xs: distinct }).ok).toBe(true);
    expect(validateArguments(objects, { xs: [{ a: { b: 1 } }, { a: { b: 1 } }] }).ok).toBe(false);
    expect(validateArguments(schemaOf({ type: "integer" }), { xs: [2, "2"] })).toMatchObject({ ok: false });
    expect(validateArguments(schemaOf({ type: "string" }), { xs: ["a", "b"] })).toEqual({ ok: true });
  });

  it("checks 50,000 objects without stalling the process (linear, not pairwise)", () => {
    const xs = Array.from({ length: 50_000 }, (_, i) => ({ a: i, tag: "same" }));
    const started = performance.now();
    expect(validateArguments(objects, { xs }).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  }, 10_000);
});

describe("validateArguments: many unknown or missing names", () => {
  it("lists the first names of a group and counts the rest, in linear time", () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    const args: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i += 1) args[`k${i}`] = 1;
    const started = performance.now();
    const r = validateArguments(schema, args);
    expect(performance.now() - started).toBeLessThan(3_000);
    const names = Array.from({ length: MAX_LISTED_NAMES }, (_, i) => `k${i}`).join(", ");
    expect(r).toEqual({
      ok: false,
      error: `unknown parameter(s): ${names} and ${100_000 - MAX_LISTED_NAMES} more`,
    });
  }, 20_000);
});
