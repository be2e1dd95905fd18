import { describe, expect, it } from "vitest";
import { isJsonText } from "./is-json-text";

describe("isJsonText", () => {
  it("accepts any JSON value, with JSON whitespace around it", () => {
    for (const text of ['{"a":1}', "[1,2]", '"hi"', "42", "null", "true", ' \n{"a":[]}\t'])
      expect(isJsonText(text), text).toBe(true);
  });

  it("refuses text that is not JSON", () => {
    for (const text of ["", "hello", "{a:1}", "[1,", "'x'", "undefined", "NaN", '{"a":1}}'])
      expect(isJsonText(text), text).toBe(false);
  });
});
