import { describe, expect, it } from "vitest";
import { storableText } from "./prepared";

describe("storableText", () => {
  it("replaces U+0000 with U+FFFD on PostgreSQL only, and leaves everything else alone", () => {
    expect(storableText({ dialect: "postgres" }, "a\u0000b\u0000")).toBe("a\uFFFDb\uFFFD");
    expect(storableText({ dialect: "sqlite" }, "a\u0000b")).toBe("a\u0000b");
    expect(storableText({ dialect: "postgres" }, "plain")).toBe("plain");
    expect(storableText({ dialect: "postgres" }, null)).toBeNull();
  });
});
