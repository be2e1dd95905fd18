import { describe, expect, it } from "vitest";
import { parseDocumentText } from "./parse-document-text";

describe("parseDocumentText", () => {
  it("reads JSON and YAML; YAML's core schema keeps yes/on strings", () => {
    expect(parseDocumentText('{"openapi":"3.1.0"}')).toStrictEqual({ ok: true, value: { openapi: "3.1.0" } });
    expect(parseDocumentText("openapi: 3.1.0\nflag: yes\non: 1\n")).toStrictEqual({
      ok: true,
      value: { openapi: "3.1.0", flag: "yes", on: 1 },
    });
  });

  it.each([
    ["key: !!js/function 'function(){}'", "not valid YAML: unknown tag"],
    ["a: [", "not valid YAML"],
    ['{"a": [1,}', "not valid JSON: "],
    ["a: 1\n  b: 2", "not valid YAML"],
  ])("refuses %j naming the parser's reason", (text, reason) => {
    const r = parseDocumentText(text);
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.reason).toContain(reason);
  });
});
