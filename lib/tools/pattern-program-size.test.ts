import { describe, expect, it } from "vitest";
import { compileLinearRegExp } from "./linear-regexp";
import { patternProgramSize } from "./pattern-program-size";
import { checkSafeSchema } from "./safe-schema";

// Each `a{0,999}` is a thousand optional copies once RE2 expands it; a hundred of them fit in
// 1,000 characters and took re2js over a second to compile, with the event loop blocked.
const EXPANDING = "a{0,999}".repeat(100);

describe("patternProgramSize", () => {
  it("counts atoms once and counted repeats once per copy", () => {
    expect(patternProgramSize("abc").size).toBe(3);
    expect(patternProgramSize("a{3}")).toEqual({ size: 6, maxCount: 3 });
    expect(patternProgramSize("(?:ab){2,5}").size).toBe(20);
    expect(patternProgramSize("[a-z{9}]\\p{L}\\u{1F600}\\x41").size).toBe(4);
    expect(patternProgramSize("^(?<year>\\d{4})-\\d{2}$").maxCount).toBe(4);
    expect(patternProgramSize("a{,5}").size).toBe(5); // not a repeat in JavaScript: five literals
  });

  it("sees the expansion of a short pattern", () => {
    expect(patternProgramSize(EXPANDING).size).toBeGreaterThan(100_000);
    expect(patternProgramSize("(?:(?:a{9}){9}){9}").size).toBeGreaterThan(729);
  });

  it("reads the largest count even when it is too large to be a number of copies", () => {
    expect(patternProgramSize(`a{${"9".repeat(400)}}`).maxCount).toBe(Infinity);
  });
});

describe("patterns that expand to a huge program", () => {
  it("are refused before they are compiled, quickly and naming the limit", () => {
    const started = performance.now();
    const r = compileLinearRegExp(EXPANDING);
    expect(performance.now() - started).toBeLessThan(200);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^expands to about \d+ regex instructions once its repeat counts are applied/);
  });

  it("keep the repeat-count message for a count over RE2's cap", () => {
    const r = compileLinearRegExp("a{1001}");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain("repeat count above 1000");
  });

  it("are bounded per schema: many patterns under the per-pattern cap cannot add up", () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 60; i += 1) properties[`p${i}`] = { type: "string", pattern: "a{0,999}".repeat(4) };
    const started = performance.now();
    const problems = checkSafeSchema({ type: "object", properties });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(
      /^parameters\.properties\.p\d+: 'pattern' brings the patterns of this schema to about \d+ regex instructions/,
    );
  });

  it("leave real patterns alone", () => {
    for (const p of [
      "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$",
      "^([0-9a-fA-F]{40}(?:[0-9a-fA-F]{24})?)$",
      "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$",
      "^.{0,1000}$",
      "^[a-z]{1,500}\\.[a-z]{1,500}$",
    ])
      expect({ p, ok: compileLinearRegExp(p).ok }).toEqual({ p, ok: true });
  });
});
