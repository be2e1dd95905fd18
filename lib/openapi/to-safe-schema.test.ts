import { describe, expect, it } from "vitest";
import { checkSafeSchema } from "@/lib/tools";
import { toSafeSchema } from "./to-safe-schema";

const ok = (schema: unknown) => {
  const r = toSafeSchema(schema, "p");
  if (!r.ok) throw new Error(r.problems.join("; "));
  return r.schema;
};
const problems = (schema: unknown) => {
  const r = toSafeSchema(schema, "p");
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.problems;
};

describe("toSafeSchema", () => {
  it("rewrites OpenAPI 3.0 nullable, boolean exclusive bounds and drops annotations", () => {
    expect(
      ok({
        type: "integer",
        nullable: true,
        minimum: 1,
        exclusiveMinimum: true,
        format: "int64",
        example: 3,
        readOnly: false,
        "x-internal": 1,
      }),
    ).toStrictEqual({ type: "integer", exclusiveMinimum: 1 });
  });

  it("collapses 3.1's type lists and null alternatives", () => {
    expect(ok({ type: ["string", "null"], maxLength: 3 })).toStrictEqual({ type: "string", maxLength: 3 });
    expect(ok({ anyOf: [{ type: "string" }, { type: "null" }], description: "d" })).toStrictEqual({
      type: "string",
      description: "d",
    });
    expect(ok({ type: "string", enum: ["a", null] })).toStrictEqual({ type: "string", enum: ["a"] });
  });

  it("merges allOf, leaves readOnly properties out and drops required names that are not properties", () => {
    const schema = ok({
      allOf: [
        {
          type: "object",
          properties: { id: { type: "integer", readOnly: true }, name: { type: "string" } },
          required: ["name", "id"],
        },
        { properties: { tag: { type: "string" } }, required: ["tag", "ghost"] },
      ],
    });
    expect(schema).toStrictEqual({
      type: "object",
      properties: { name: { type: "string" }, tag: { type: "string" } },
      required: ["name", "tag"],
    });
    expect(checkSafeSchema(schema)).toStrictEqual([]);
  });

  it("turns a map's value schema into an open object and infers types only from unambiguous shapes", () => {
    expect(ok({ type: "object", additionalProperties: { type: "string" } })).toStrictEqual({
      type: "object",
      properties: {},
      additionalProperties: true,
    });
    expect(ok({ enum: ["a", "b"] })).toStrictEqual({ type: "string", enum: ["a", "b"] });
    expect(ok({ items: { type: "number" } })).toStrictEqual({ type: "array", items: { type: "number" } });
  });

  it.each([
    [{ oneOf: [{ type: "string" }, { type: "integer" }] }, "p: 'oneOf' is not supported"],
    [
      { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "number" }] } } },
      "p.properties.a: 'anyOf'",
    ],
    [
      { $ref: "#/components/schemas/Node" },
      `p: '$ref' "#/components/schemas/Node" could not be inlined (circular or external)`,
    ],
    [{ $ref: "https://example.com/x.json" }, "could not be inlined"],
    [{}, "allows any value"],
    [{ description: "anything" }, "has no 'type'"],
    [{ type: ["string", "integer"] }, "lists several types"],
    [{ type: "array" }, "an array without 'items'"],
    [{ type: "array", items: [{ type: "string" }] }, "a tuple"],
    [{ type: "string", not: { enum: ["x"] } }, "'not' is not supported"],
    [{ allOf: [{ type: "string" }, { type: "integer" }] }, "'allOf' combines type"],
    [
      {
        allOf: [
          { type: "string", maxLength: 2 },
          { type: "string", maxLength: 3 },
        ],
      },
      "disagree on 'maxLength'",
    ],
  ])("refuses %j naming the construct", (schema, expected) => {
    expect(problems(schema).join("; ")).toContain(expected);
  });

  it("keeps __proto__ a property name, never the prototype", () => {
    const schema = ok(JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'));
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    expect(Object.keys(schema.properties as object)).toStrictEqual(["__proto__"]);
    expect(checkSafeSchema(schema).join()).toContain("'__proto__' is not a usable property name");
  });

  it("stops on a schema that inlines into more nodes than the bound", () => {
    // A shared node referenced from every level doubles the inlined size per level.
    let node: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 20; i++) node = { type: "object", properties: { a: node, b: node } };
    expect(problems(node).join()).toContain("the schema is too large");
  });
});
