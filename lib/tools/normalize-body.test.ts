import { describe, expect, it } from "vitest";
import { isLonePlaceholder, mapBodyStrings, normalizeBody } from "@/lib/tools/normalize-body";

describe("normalizeBody", () => {
  const run = (raw: Parameters<typeof normalizeBody>[0], method: "POST" | "GET" = "POST") => {
    const problems: string[] = [];
    return { result: normalizeBody(raw, method, undefined, problems), problems };
  };

  it("reads JSON values, JSON text and lone placeholders", () => {
    expect(run({ a: 1 }).result).toEqual({ value: { a: 1 } });
    expect(run(" [1, 2] ").result).toEqual({ value: [1, 2] });
    expect(run("{{payload}}").result).toEqual({ value: "{{payload}}" });
    expect(run(0).result).toEqual({ value: 0 });
  });

  it("treats null, blank text and the text null as no body", () => {
    expect(run(null)).toEqual({ result: undefined, problems: [] });
    expect(run(" ")).toEqual({ result: undefined, problems: [] });
    expect(run("null")).toEqual({ result: undefined, problems: [] });
    expect(run(null, "GET")).toEqual({ result: undefined, problems: [] });
  });

  it("refuses text that is not JSON and bodies on GET", () => {
    expect(run("a=1").problems[0]).toMatch(/^request\.body: a string body must hold JSON text/);
    expect(run({}, "GET")).toEqual({ result: null, problems: ["request.body is not allowed with GET"] });
  });
});

describe("mapBodyStrings", () => {
  it("passes every string through the template function with its path", () => {
    const seen: string[] = [];
    const problems: string[] = [];
    const out = mapBodyStrings(
      { a: ["x", { b: "y" }], n: 1 },
      "request.body",
      (t, where) => {
        seen.push(where);
        return t.toUpperCase();
      },
      problems,
    );
    expect(out).toEqual({ a: ["X", { b: "Y" }], n: 1 });
    expect(seen).toEqual(["request.body.a[0]", "request.body.a[1].b"]);
    expect(problems).toEqual([]);
  });

  it("refuses a whole body that is a plain string, and placeholders in keys", () => {
    const problems: string[] = [];
    mapBodyStrings("text", "request.body", (t) => t, problems);
    mapBodyStrings({ "{{k}}": 1 }, "request.body", (t) => t, problems);
    expect(problems).toEqual([
      'request.body: a body that is a single JSON string must be a lone placeholder such as "{{payload}}"; use an object or array',
      "request.body: placeholders are allowed in values, not in the key '{{k}}'",
    ]);
  });
});

describe("isLonePlaceholder", () => {
  it("is true only for exactly one placeholder", () => {
    expect(isLonePlaceholder("{{ p }}")).toBe(true);
    expect(isLonePlaceholder("{{p}}{{q}}")).toBe(false);
    expect(isLonePlaceholder("x{{p}}")).toBe(false);
    expect(isLonePlaceholder("{{p")).toBe(false);
  });
});
