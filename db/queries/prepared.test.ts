import { describe, expect, it } from "vitest";
import { storableJson, storableText } from "./prepared";

describe("storableText", () => {
  it("replaces U+0000 with U+FFFD on PostgreSQL only, and leaves everything else alone", () => {
    expect(storableText({ dialect: "postgres" }, "a\u0000b\u0000")).toBe("a\uFFFDb\uFFFD");
    expect(storableText({ dialect: "sqlite" }, "a\u0000b")).toBe("a\u0000b");
    expect(storableText({ dialect: "postgres" }, "plain")).toBe("plain");
    expect(storableText({ dialect: "postgres" }, null)).toBeNull();
  });
});

describe("storableJson", () => {
  const pg = { dialect: "postgres" };
  const hostile = {
    result: "a\u0000b",
    [`key\u0000`]: ["lone \ud800 high", "lone \udc00 low", "pair \ud83d\ude00 kept"],
    nested: { deeper: [{ text: "\u0000\u0000" }] },
  };

  it("on PostgreSQL writes NUL and unpaired surrogates, in values and keys, as U+FFFD", () => {
    const text = storableJson(pg, hostile);
    expect(text).not.toMatch(/\\u(0000|d[89a-f])/i);
    expect(JSON.parse(text)).toEqual({
      result: "a\uFFFDb",
      "key\uFFFD": ["lone \uFFFD high", "lone \uFFFD low", "pair \ud83d\ude00 kept"],
      nested: { deeper: [{ text: "\uFFFD\uFFFD" }] },
    });
  });

  it("leaves text that only looks like such an escape alone, and SQLite's JSON as JSON.stringify writes it", () => {
    const literal = { typed: "a backslash then u0000: \\u0000, and \\ud800" };
    expect(storableJson(pg, literal)).toBe(JSON.stringify(literal));
    expect(storableJson({ dialect: "sqlite" }, hostile)).toBe(JSON.stringify(hostile));
    expect(storableJson(pg, { plain: "text ☃" })).toBe('{"plain":"text ☃"}');
  });
});
