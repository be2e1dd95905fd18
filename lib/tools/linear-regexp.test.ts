import { describe, expect, it } from "vitest";
import { COMPILED_PATTERN_CACHE_BYTES, compileLinearRegExp } from "./linear-regexp";
import { checkSafeSchema } from "./safe-schema";
import { validateArguments } from "./validate-arguments";

const HOSTILE = "^(\\w+\\s?)*$";

function compiled(pattern: string) {
  const r = compileLinearRegExp(pattern);
  if (!r.ok) throw new Error(r.error);
  return r.regexp;
}

describe("compileLinearRegExp", () => {
  it("matches like JavaScript on ordinary patterns (u flag, search semantics)", () => {
    const cases: [string, string, boolean][] = [
      ["^[a-z]+$", "abc", true],
      ["^[a-z]+$", "abC", false],
      ["b", "abc", true],
      ["^\\d{5}-?\\d{3}$", "01001-000", true],
      ["^\\u00e9+$", "éé", true],
      ["^\\p{L}+$", "Ünïcødé", true],
      ["^(?<word>[a-z]+)$", "named", true],
      ["^[^]$", "x", true],
      ["^a$", "a\n", false],
    ];
    for (const [pattern, input, expected] of cases) {
      expect({ pattern, input, match: compiled(pattern).test(input) }).toEqual({ pattern, input, match: expected });
      expect(new RegExp(pattern, "u").test(input)).toBe(expected);
    }
  });

  it("refuses what needs backtracking, naming the construct", () => {
    const cases: [string, string][] = [
      ["(a)\\1", "backreference \\1"],
      ["(?<n>a)\\k<n>", "named backreference"],
      ["a(?=b)", "lookahead (?=…)"],
      ["a(?!b)", "negative lookahead (?!…)"],
      ["(?<=a)b", "lookbehind (?<=…)"],
      ["(?<!a)b", "negative lookbehind (?<!…)"],
      ["a{1001}", "repeat count above 1000"],
    ];
    for (const [pattern, named] of cases) {
      const r = compileLinearRegExp(pattern);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain(named);
    }
    expect(compileLinearRegExp("(").ok).toBe(false);
    // Inside a class or escaped, the same characters are literals.
    expect(compiled("^[(?=\\]]+$").test("(?=]")).toBe(true);
    expect(compiled("^\\(\\?=$").test("(?=")).toBe(true);
  });

  it("runs the pattern that froze the process in linear time", () => {
    const re = compiled(HOSTILE);
    // Backtracking needs ~2^32 steps on 32 letters and a "!"; a linear engine a few hundred.
    const started = performance.now();
    expect(re.test(`${"a".repeat(32)}!`)).toBe(false);
    const small = performance.now() - started;
    // Linear: 100,000 letters take a bounded time (generous bound for a loaded machine).
    const big = performance.now();
    expect(re.test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(performance.now() - big).toBeLessThan(5_000);
    expect(small).toBeLessThan(1_000);
  });
});

describe("the compiled-pattern cache", () => {
  it("compiles a pattern once while it is in use, and forgets the least recently used past its bound", () => {
    const first = compileLinearRegExp("^cache-[a-z]{0,900}$");
    const again = compileLinearRegExp("^cache-[a-z]{0,900}$");
    expect(first.ok && again.ok && again.regexp === first.regexp).toBe(true);
    // Each kept pattern counts for at least 64 KiB: enough distinct ones to pass the bound, with
    // `kept` used between them so that it stays the most recently used.
    const kept = compileLinearRegExp("^kept-[a-z]{0,10}$");
    const distinct = COMPILED_PATTERN_CACHE_BYTES / (64 * 1024) + 2;
    for (let i = 0; i < distinct; i++) {
      expect(compileLinearRegExp(`^fill${i}-[a-z]{0,3}$`).ok).toBe(true);
      compileLinearRegExp("^kept-[a-z]{0,10}$");
    }
    const later = compileLinearRegExp("^cache-[a-z]{0,900}$");
    expect(later.ok && first.ok && later.regexp !== first.regexp).toBe(true);
    const keptLater = compileLinearRegExp("^kept-[a-z]{0,10}$");
    expect(kept.ok && keptLater.ok && keptLater.regexp === kept.regexp).toBe(true);
    // A recompiled matcher matches as the first did.
    expect(later.ok && later.regexp.test("cache-abc")).toBe(true);
  });

  it("does not keep a refusal in place of a result", () => {
    expect(compileLinearRegExp("(a)\\1").ok).toBe(false);
    expect(compileLinearRegExp("(a)\\1").ok).toBe(false);
  });
});

describe("patterns in parameters", () => {
  it("are refused at save time with the parameter path and the construct", () => {
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^(a)\\1$" } } };
    expect(checkSafeSchema(schema)).toEqual([
      "parameters.properties.code: 'pattern' uses the backreference \\1, which the linear-time regex engine does not support (rewrite it without it): ^(a)\\1$",
    ]);
  });

  it("are matched by the linear engine when arguments are validated", () => {
    const schema = { type: "object", properties: { words: { type: "string", pattern: HOSTILE } } };
    const started = performance.now();
    expect(validateArguments(schema, { words: `${"a".repeat(32)}!` })).toEqual({
      ok: false,
      error: `words: must match the pattern ${HOSTILE}`,
    });
    expect(validateArguments(schema, { words: "two words" })).toEqual({ ok: true });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("keep distinct patterns distinct inside one Ajv instance", () => {
    const a = { type: "object", properties: { v: { type: "string", pattern: "^a+$" } } };
    const b = { type: "object", properties: { v: { type: "string", pattern: "^b+$" } } };
    expect(validateArguments(a, { v: "aaa" })).toEqual({ ok: true });
    expect(validateArguments(b, { v: "bbb" })).toEqual({ ok: true });
    expect(validateArguments(b, { v: "aaa" }).ok).toBe(false);
  });
});
