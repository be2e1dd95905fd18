import { describe, expect, it } from "vitest";
import { parseToolArguments } from "./parse-tool-arguments";

describe("parseToolArguments", () => {
  it("accepts a JSON object", () => {
    expect(parseToolArguments('{"q":"x","n":2}')).toEqual({ ok: true, value: { q: "x", n: 2 } });
  });

  it("reads blank text as no arguments", () => {
    expect(parseToolArguments("")).toEqual({ ok: true, value: {} });
    expect(parseToolArguments("  \n")).toEqual({ ok: true, value: {} });
  });

  it("reports text that is not JSON", () => {
    const parsed = parseToolArguments('{"q": ');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/^arguments are not valid JSON: \S/);
  });

  it.each([
    ["[1,2]", "an array"],
    ["null", "null"],
    ["3", "a number"],
    ['"text"', "a string"],
    ["true", "a boolean"],
  ])("refuses %s (not an object)", (raw, kind) => {
    expect(parseToolArguments(raw)).toEqual({
      ok: false,
      error: `arguments are not valid JSON: expected an object, got ${kind}`,
    });
  });
});
