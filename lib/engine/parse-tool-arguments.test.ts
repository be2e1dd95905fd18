import { describe, expect, it } from "vitest";
import {
  MAX_ARGUMENT_CHARS,
  MAX_ARGUMENT_DEPTH,
  oversizeArgumentsText,
  parseToolArguments,
} from "./parse-tool-arguments";

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

describe("parseToolArguments: nesting depth", () => {
  const nested = (levels: number) => `{"q":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;

  it("accepts arguments nested exactly MAX_ARGUMENT_DEPTH levels", () => {
    expect(parseToolArguments(nested(MAX_ARGUMENT_DEPTH)).ok).toBe(true);
  });

  it("refuses arguments nested deeper, naming the limit (they could not be written back or traced)", () => {
    expect(parseToolArguments(nested(MAX_ARGUMENT_DEPTH + 1))).toEqual({
      ok: false,
      error: `arguments are nested too deeply (more than ${MAX_ARGUMENT_DEPTH} levels)`,
    });
    expect(parseToolArguments(nested(50_000)).ok).toBe(false);
  });

  it("does not count brackets inside strings", () => {
    const inString = JSON.stringify({ q: "[{".repeat(500), r: '\\"[[' });
    expect(parseToolArguments(inString).ok).toBe(true);
  });
});

describe("parseToolArguments: length", () => {
  const refusal = (length: number | string) => ({
    ok: false,
    error: `arguments are too long (${length} characters; at most ${MAX_ARGUMENT_CHARS}): the call was not run`,
  });

  it("accepts text of exactly MAX_ARGUMENT_CHARS and refuses longer text, naming its length", () => {
    const fits = `{"q":"${"x".repeat(MAX_ARGUMENT_CHARS - 8)}"}`;
    expect(fits.length).toBe(MAX_ARGUMENT_CHARS);
    expect(parseToolArguments(fits).ok).toBe(true);
    expect(parseToolArguments(`${fits} `)).toEqual(refusal(MAX_ARGUMENT_CHARS + 1));
  });

  it("reads the note kept in place of text that was too long as the same refusal", () => {
    const note = oversizeArgumentsText(5_000_000);
    expect(note.length).toBeLessThan(100);
    expect(parseToolArguments(note)).toEqual(refusal(5_000_000));
  });

  it("reads text that only starts like the note without echoing it", () => {
    const lookalike = `(arguments not kept: ${"x".repeat(500)}`;
    expect(parseToolArguments(lookalike)).toEqual(refusal(`more than ${MAX_ARGUMENT_CHARS}`));
  });
});
