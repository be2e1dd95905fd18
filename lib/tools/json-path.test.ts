import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJsonPath, readJsonPath } from "@/lib/tools/json-path";

function steps(text: string) {
  const r = parseJsonPath(text);
  if (!r.ok) throw new Error(`expected ${text} to parse: ${r.error}`);
  return r.steps;
}

function errorOf(text: unknown): string {
  const r = parseJsonPath(text);
  if (r.ok) throw new Error(`expected ${String(text)} to be refused`);
  return r.error;
}

describe("parseJsonPath", () => {
  it("accepts the D1 examples", () => {
    expect(steps("$.results")).toEqual(["results"]);
    expect(steps("results")).toEqual(["results"]);
    expect(steps("tool_result.status")).toEqual(["status"]);
    expect(steps("$.items[0].id")).toEqual(["items", 0, "id"]);
  });

  it("treats $ and tool_result alone as the whole body", () => {
    expect(steps("$")).toEqual([]);
    expect(steps("tool_result")).toEqual([]);
  });

  it("reads quoted keys in single and double quotes with escapes", () => {
    expect(steps("$['a b']")).toEqual(["a b"]);
    expect(steps(`$["x.y"]`)).toEqual(["x.y"]);
    expect(steps(`$['it\\'s']`)).toEqual(["it's"]);
    expect(steps(`$["back\\\\slash"]`)).toEqual(["back\\slash"]);
    expect(steps(`$['a'][1]["b"]`)).toEqual(["a", 1, "b"]);
  });

  it("starts a bare path at the body, and tool_results is a key, not the root", () => {
    expect(steps("a.b")).toEqual(["a", "b"]);
    expect(steps("tool_results.x")).toEqual(["tool_results", "x"]);
    expect(steps("$x")).toEqual(["$x"]);
    expect(steps("content-type")).toEqual(["content-type"]);
  });

  it("ignores surrounding whitespace", () => {
    expect(steps("  $.a  ")).toEqual(["a"]);
  });

  it("refuses malformed paths with a position", () => {
    expect(errorOf("")).toBe("path is empty");
    expect(errorOf(42)).toBe("path must be a string");
    expect(errorOf("$.")).toMatch(/position 3: expected a key name after '.'/);
    expect(errorOf("a..b")).toMatch(/expected a key name/);
    expect(errorOf("$[-1]")).toMatch(/non-negative integer index/);
    expect(errorOf("$[01]")).toMatch(/non-negative integer index/);
    expect(errorOf("$['a")).toMatch(/unterminated quoted key/);
    expect(errorOf("$['a'")).toMatch(/expected '\]'/);
    expect(errorOf("$['a\\n']")).toMatch(/are escapes/);
    expect(errorOf("$[*]")).toMatch(/index/);
    expect(errorOf("[0]")).toMatch(/expected '\$', 'tool_result' or a key name/);
    expect(errorOf("$.a b")).toMatch(/unexpected ' '/);
    expect(errorOf("$" + ".a".repeat(600))).toMatch(/longer than 1024/);
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const r = parseJsonPath(s);
        expect(typeof r.ok).toBe("boolean");
      }),
      { numRuns: 500 },
    );
  });
});

describe("readJsonPath", () => {
  const body = { status: "OK", items: [{ id: 7 }, { id: null }], "a b": { c: false }, n: 0 };

  it("reads keys and indexes", () => {
    expect(readJsonPath(body, "tool_result.status")).toEqual({ found: true, value: "OK" });
    expect(readJsonPath(body, "$.items[0].id")).toEqual({ found: true, value: 7 });
    expect(readJsonPath(body, "$['a b'].c")).toEqual({ found: true, value: false });
    expect(readJsonPath(body, "$")).toEqual({ found: true, value: body });
    expect(readJsonPath(body, ["items", 1, "id"])).toEqual({ found: true, value: null });
  });

  it("distinguishes a null value from a missing key", () => {
    expect(readJsonPath(body, "$.items[1].id")).toEqual({ found: true, value: null });
    expect(readJsonPath(body, "$.items[1].name")).toEqual({ found: false });
  });

  it("misses out-of-range indexes and type mismatches", () => {
    expect(readJsonPath(body, "$.items[2]")).toEqual({ found: false });
    expect(readJsonPath(body, "$.status[0]")).toEqual({ found: false });
    expect(readJsonPath(body, "$.items.length")).toEqual({ found: false });
    expect(readJsonPath(body, "$.items['0']")).toEqual({ found: false });
    expect(readJsonPath(body, "$.n.x")).toEqual({ found: false });
    expect(readJsonPath("text", "$.length")).toEqual({ found: false });
  });

  it("never resolves through the prototype chain", () => {
    expect(readJsonPath({}, "$.__proto__")).toEqual({ found: false });
    expect(readJsonPath({}, "$.constructor")).toEqual({ found: false });
    expect(readJsonPath({ a: {} }, "a.toString")).toEqual({ found: false });
    expect(readJsonPath({}, "hasOwnProperty")).toEqual({ found: false });
    // An own "__proto__" key (as JSON.parse creates one) is ordinary data.
    expect(readJsonPath(JSON.parse('{"__proto__": {"x": 1}}'), "$.__proto__.x")).toEqual({ found: true, value: 1 });
  });

  it("returns not found for an invalid path instead of throwing", () => {
    expect(readJsonPath(body, "$.")).toEqual({ found: false });
    expect(readJsonPath(body, 5 as unknown as string)).toEqual({ found: false });
  });
});
