import { describe, expect, it } from "vitest";
import { checkSafeSchema } from "@/lib/tools/safe-schema";

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});

describe("checkSafeSchema", () => {
  it("accepts the spec's list-of-objects schema", () => {
    const schema = obj(
      {
        query_filter_pairs: {
          type: "array",
          items: obj(
            { query: { type: "string" }, filters: { type: "object", properties: {} } },
            { required: ["query"] },
          ),
        },
      },
      { required: ["query_filter_pairs"] },
    );
    expect(checkSafeSchema(schema)).toEqual([]);
  });

  it("accepts the harmless annotation and validation keywords", () => {
    const schema = obj(
      {
        s: {
          type: "string",
          title: "S",
          description: "d",
          minLength: 1,
          maxLength: 5,
          pattern: "^[a-z]+$",
          format: "email",
          enum: ["ab"],
          default: "ab",
          examples: ["ab"],
        },
        n: {
          type: "number",
          minimum: 0,
          maximum: 10,
          exclusiveMinimum: -1,
          exclusiveMaximum: 11,
          multipleOf: 0.5,
          const: 2,
        },
        i: { type: "integer", minimum: 1 },
        b: { type: "boolean", default: false },
        a: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true },
        o: { type: "object", additionalProperties: true, minProperties: 0, maxProperties: 2 },
      },
      { additionalProperties: false, $schema: "http://json-schema.org/draft-07/schema#", $comment: "c" },
    );
    expect(checkSafeSchema(schema)).toEqual([]);
  });

  it("refuses combinators and references, naming the keyword and its path", () => {
    expect(checkSafeSchema(obj({ x: { type: "string", oneOf: [] } }))).toEqual([
      "parameters.properties.x: 'oneOf' is not allowed (not every provider supports it)",
    ]);
    for (const kw of [
      "anyOf",
      "allOf",
      "not",
      "$ref",
      "$defs",
      "definitions",
      "if",
      "then",
      "else",
      "dependentSchemas",
      "dependentRequired",
      "patternProperties",
      "prefixItems",
      "unevaluatedProperties",
      "contains",
      "propertyNames",
    ]) {
      expect(checkSafeSchema(obj({}, { [kw]: {} }))).toContain(
        `parameters: '${kw}' is not allowed (not every provider supports it)`,
      );
    }
    expect(
      checkSafeSchema(
        obj({ l: { type: "array", items: { type: "object", properties: { deep: { type: "string", anyOf: [] } } } } }),
      ),
    ).toEqual([
      "parameters.properties.l.items.properties.deep: 'anyOf' is not allowed (not every provider supports it)",
    ]);
  });

  it("requires a single allowed type on every node", () => {
    expect(checkSafeSchema(obj({ x: { description: "no type" } }))).toEqual([
      "parameters.properties.x: 'type' is required",
    ]);
    expect(checkSafeSchema(obj({ x: { type: ["string", "null"] } }))).toEqual([
      "parameters.properties.x: 'type' must be a single type name, not a list",
    ]);
    expect(checkSafeSchema(obj({ x: { type: "null" } }))).toEqual([
      "parameters.properties.x: 'type' must be one of object, array, string, number, integer, boolean",
    ]);
    expect(checkSafeSchema(obj({ x: true }))).toEqual([
      "parameters.properties.x: must be a JSON Schema object, got a boolean",
    ]);
  });

  it("requires the top level to be an object", () => {
    expect(checkSafeSchema({ type: "string" })).toEqual(['parameters: the top level must have type "object"']);
    expect(checkSafeSchema([])).toEqual(["parameters: must be a JSON Schema object, got a list"]);
    expect(checkSafeSchema(null)).toEqual(["parameters: must be a JSON Schema object, got null"]);
  });

  it("requires items on arrays, as a single schema", () => {
    expect(checkSafeSchema(obj({ a: { type: "array" } }))).toEqual([
      "parameters.properties.a: an array needs 'items' (the schema of its elements)",
    ]);
    expect(checkSafeSchema(obj({ a: { type: "array", items: [{ type: "string" }] } }))).toEqual([
      "parameters.properties.a: 'items' must be a single schema, not a list",
    ]);
  });

  it("checks that required names declared properties, once each", () => {
    expect(checkSafeSchema(obj({ a: { type: "string" } }, { required: ["a", "b"] }))).toEqual([
      "parameters: 'required' names 'b', which is not in 'properties'",
    ]);
    expect(checkSafeSchema(obj({ a: { type: "string" } }, { required: ["a", "a"] }))).toEqual([
      "parameters: 'required' lists 'a' twice",
    ]);
    expect(checkSafeSchema({ type: "object", required: ["a"] })).toEqual([
      "parameters: 'required' names 'a', which is not in 'properties'",
    ]);
    expect(checkSafeSchema(obj({}, { required: "a" }))).toEqual([
      "parameters: 'required' must be a list of property names",
    ]);
  });

  it("checks keyword values and where they apply", () => {
    expect(checkSafeSchema(obj({ s: { type: "string", pattern: "(" } }))).toEqual([
      "parameters.properties.s: 'pattern' is not a valid regular expression: (",
    ]);
    expect(checkSafeSchema(obj({ s: { type: "string", minimum: 1 } }))).toEqual([
      "parameters.properties.s: 'minimum' applies only to type number/integer",
    ]);
    expect(checkSafeSchema(obj({}, { additionalProperties: { type: "string" } }))).toEqual([
      "parameters: 'additionalProperties' must be true or false (a schema there is not supported)",
    ]);
    expect(checkSafeSchema(obj({ n: { type: "number", multipleOf: 0 } }))).toEqual([
      "parameters.properties.n: 'multipleOf' must be a number greater than 0",
    ]);
    expect(checkSafeSchema(obj({ s: { type: "string", maxLength: -1 } }))).toEqual([
      "parameters.properties.s: 'maxLength' must be a non-negative integer",
    ]);
    expect(checkSafeSchema(obj({ s: { type: "string", enum: [] } }))).toEqual([
      "parameters.properties.s: 'enum' must be a non-empty list",
    ]);
    expect(checkSafeSchema(obj({ s: { type: "string", description: 3 } }))).toEqual([
      "parameters.properties.s: 'description' must be a string",
    ]);
    expect(checkSafeSchema(obj({ s: { type: "string", nullable: true } }))).toEqual([
      "parameters.properties.s: 'nullable' is not a supported JSON Schema keyword",
    ]);
    expect(checkSafeSchema(obj({ s: { type: "string", $schema: "x" } }))).toEqual([
      "parameters.properties.s: '$schema' is allowed only at the top level",
    ]);
  });

  it("quotes odd property names in paths and refuses __proto__", () => {
    expect(checkSafeSchema(obj({ "a.b": { type: "nope" } }))[0]).toMatch(
      /^parameters\.properties\["a\.b"\]: 'type' must be/,
    );
    expect(checkSafeSchema(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))).toEqual([
      "parameters.properties.__proto__: '__proto__' is not a usable property name",
    ]);
  });

  it("uses the given root path", () => {
    expect(checkSafeSchema({ type: "object", oneOf: [] }, "inputSchema")).toEqual([
      "inputSchema: 'oneOf' is not allowed (not every provider supports it)",
    ]);
  });

  it("bounds depth, size and the number of problems", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i += 1) deep = obj({ x: deep });
    const deepProblems = checkSafeSchema(deep);
    expect(deepProblems).toHaveLength(1);
    expect(deepProblems[0]).toMatch(/nested too deeply \(more than 32 levels\)/);

    const wide = obj(Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`p${i}`, { type: "string" }])));
    expect(checkSafeSchema(wide)).toEqual([expect.stringMatching(/too large \(more than 2000 nodes\)/)]);

    const bad = obj(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "x" }])));
    expect(checkSafeSchema(bad)).toHaveLength(20);
  });

  it("does not throw on a hostile object", () => {
    const hostile = {
      type: "object",
      get properties() {
        throw new Error("boom");
      },
    };
    expect(checkSafeSchema(hostile)).toEqual(["parameters: the schema could not be read (boom)"]);
  });
});
