import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFlatSugar, toFlatSugar } from "@/lib/tools/flat-sugar";

function schemaOf(text: string) {
  const r = parseFlatSugar(text);
  if (!r.ok) throw new Error(`expected to parse: ${r.error}`);
  return r.schema;
}

function errorOf(text: string): string {
  const r = parseFlatSugar(text);
  if (r.ok) throw new Error("expected a refusal");
  return r.error;
}

describe("parseFlatSugar", () => {
  it("parses the spec example", () => {
    const text = [
      "cep      | string       | required | The ZIP code to look up",
      "tags     | array:string | optional | Labels to filter by",
      "quantity | integer      | required | How many",
    ].join("\n");
    expect(schemaOf(text)).toEqual({
      type: "object",
      properties: {
        cep: { type: "string", description: "The ZIP code to look up" },
        tags: { type: "array", items: { type: "string" }, description: "Labels to filter by" },
        quantity: { type: "integer", description: "How many" },
      },
      required: ["cep", "quantity"],
    });
  });

  it("ignores blank lines and surrounding whitespace, and the description is optional", () => {
    expect(schemaOf("\n  flag | boolean | optional  \n\n   n|number|required|  \r\n")).toEqual({
      type: "object",
      properties: { flag: { type: "boolean" }, n: { type: "number" } },
      required: ["n"],
    });
  });

  it("omits required when nothing is required, and gives an empty object for empty text", () => {
    expect(schemaOf("a | string | optional")).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(schemaOf("  \n ")).toEqual({ type: "object", properties: {} });
  });

  it("keeps '|' inside the description", () => {
    expect(schemaOf("op | string | required | one of a | b").properties).toEqual({
      op: { type: "string", description: "one of a | b" },
    });
  });

  it("accepts every scalar list type", () => {
    const s = schemaOf("a | array:number | optional\nb | array:integer | optional\nc | ARRAY : Boolean | Optional");
    expect(s.properties).toEqual({
      a: { type: "array", items: { type: "number" } },
      b: { type: "array", items: { type: "integer" } },
      c: { type: "array", items: { type: "boolean" } },
    });
  });

  it("refuses a bare array, telling what to write instead", () => {
    const e = errorOf("a | string | optional\ntags | array | optional");
    expect(e).toMatch(/^line 2: /);
    expect(e).toContain("array:string");
    expect(e).toContain("JSON Schema");
  });

  it("refuses a list of objects, lists of lists and object params", () => {
    expect(errorOf("pairs | array:object | required")).toBe(
      "line 1: a list of objects cannot be written in the flat form: write the JSON Schema instead",
    );
    expect(errorOf("m | array:array:string | required")).toMatch(/list of lists/);
    expect(errorOf("o | object | required")).toMatch(/^line 1: an object parameter cannot be written/);
  });

  it("names the line of each refusal", () => {
    expect(errorOf("\n\na | strng | required")).toBe(
      "line 3: unknown type 'strng' (use string, number, integer, boolean or array:<scalar>)",
    );
    expect(errorOf("a | string")).toBe("line 1: expected 'name | type | required|optional | description'");
    expect(errorOf("a | string | maybe")).toBe("line 1: third column must be 'required' or 'optional', got 'maybe'");
    expect(errorOf("a-b | string | required")).toMatch(/^line 1: parameter name 'a-b' must start/);
    expect(errorOf(" | string | required")).toMatch(/^line 1: parameter name ''/);
    expect(errorOf("a | array:date | required")).toMatch(/^line 1: unknown item type 'date'/);
    expect(errorOf("__proto__ | string | required")).toMatch(/^line 1: '__proto__'/);
  });

  it("refuses duplicate names", () => {
    expect(errorOf("a | string | required\nb | string | optional\na | number | optional")).toBe(
      "line 3: duplicate parameter 'a'",
    );
  });

  it("keeps names such as constructor as own properties", () => {
    const s = schemaOf("constructor | string | required");
    expect(Object.keys(s.properties as object)).toEqual(["constructor"]);
    expect(s.required).toEqual(["constructor"]);
  });

  it("never throws on arbitrary text", () => {
    const cell = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom("|", "array", "array:string", "required", "\n"),
    );
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 20 }), (cells) => {
        const r = parseFlatSugar(cells.join(""));
        expect(typeof r.ok).toBe("boolean");
      }),
      { numRuns: 500 },
    );
    expect(parseFlatSugar(42 as unknown as string)).toEqual({ ok: false, error: "parameters must be text" });
  });
});

describe("toFlatSugar", () => {
  it("writes a flat-expressible schema", () => {
    const schema = schemaOf("q | string | required | The query\ntags | array:string | optional");
    expect(toFlatSugar(schema)).toBe("q | string | required | The query\ntags | array:string | optional");
  });

  it("returns null for what the flat form cannot express", () => {
    const base = { type: "object", properties: { a: { type: "string" } } };
    expect(toFlatSugar({ ...base, required: [] })).toBeNull();
    expect(toFlatSugar({ ...base, additionalProperties: false })).toBeNull();
    expect(toFlatSugar({ type: "object", properties: { a: { type: "string", enum: ["x"] } } })).toBeNull();
    expect(toFlatSugar({ type: "object", properties: { a: { type: "array", items: { type: "object" } } } })).toBeNull();
    expect(toFlatSugar({ type: "object", properties: { a: { type: "array" } } })).toBeNull();
    expect(toFlatSugar({ type: "object", properties: { "a-b": { type: "string" } } })).toBeNull();
    expect(toFlatSugar({ type: "object", properties: { a: { type: "string", description: " padded" } } })).toBeNull();
    expect(
      toFlatSugar({ type: "object", properties: { a: { type: "string", description: "two\nlines" } } }),
    ).toBeNull();
    expect(toFlatSugar({ type: "object", properties: { a: { type: "string", description: "" } } })).toBeNull();
    expect(
      toFlatSugar({
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        required: ["b", "a"],
      }),
    ).toBeNull();
    expect(toFlatSugar({ ...base, required: ["a", "a"] })).toBeNull();
    expect(toFlatSugar({ ...base, required: ["zz"] })).toBeNull();
    expect(toFlatSugar({ type: "object" })).toBeNull();
    expect(toFlatSugar(null)).toBeNull();
    expect(toFlatSugar("a | string | required")).toBeNull();
  });

  it("round-trips generated flat specs: flat -> schema -> flat -> schema", () => {
    const line = fc.record({
      name: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/).filter((n) => n !== "__proto__"),
      type: fc.constantFrom(
        "string",
        "number",
        "integer",
        "boolean",
        "array:string",
        "array:number",
        "array:integer",
        "array:boolean",
      ),
      required: fc.boolean(),
      description: fc.option(
        fc.string({ maxLength: 30 }).filter((d) => !/[\r\n]/.test(d)),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(fc.uniqueArray(line, { selector: (l) => l.name, maxLength: 8 }), (lines) => {
        const text = lines
          .map(
            (l) =>
              `${l.name} | ${l.type} | ${l.required ? "required" : "optional"}${l.description === undefined ? "" : ` | ${l.description}`}`,
          )
          .join("\n");
        const first = parseFlatSugar(text);
        expect(first.ok).toBe(true);
        if (!first.ok) return;
        const flat = toFlatSugar(first.schema);
        expect(flat).not.toBeNull();
        const second = parseFlatSugar(flat as string);
        expect(second).toEqual({ ok: true, schema: first.schema });
        expect(Object.keys(first.schema.properties as object)).toEqual(lines.map((l) => l.name));
      }),
      { numRuns: 300 },
    );
  });

  it("is exact whenever it answers: parse(toFlatSugar(s)) equals s", () => {
    const prop = fc.oneof(
      fc.record({ type: fc.constantFrom("string", "integer", "object") }),
      fc.record({ type: fc.constant("array"), items: fc.record({ type: fc.constantFrom("string", "object") }) }),
      fc.record({ type: fc.constant("number"), description: fc.string({ maxLength: 6 }) }),
      fc.record({ type: fc.constant("boolean"), enum: fc.constant([true]) }),
    );
    const schema = fc
      .dictionary(fc.stringMatching(/^[a-c_][a-c0-9-]{0,2}$/), prop, { maxKeys: 4 })
      .chain((properties) =>
        fc.record({
          type: fc.constant("object"),
          properties: fc.constant(properties),
          required: fc.subarray(Object.keys(properties)),
        }),
      );
    let answered = 0;
    fc.assert(
      fc.property(schema, (s) => {
        const flat = toFlatSugar(s);
        if (flat === null) return;
        answered += 1;
        expect(parseFlatSugar(flat)).toEqual({ ok: true, schema: s });
      }),
      { numRuns: 500 },
    );
    // The property is only meaningful if some generated schemas were expressible.
    expect(answered).toBeGreaterThan(10);
  });
});
