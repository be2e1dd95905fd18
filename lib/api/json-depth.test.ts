import { describe, expect, it } from "vitest";
import { jsonDepthExceeds } from "./json-depth";

describe("jsonDepthExceeds", () => {
  it("measures arrays and objects, not scalars", () => {
    expect(jsonDepthExceeds("x", 0)).toBe(false);
    expect(jsonDepthExceeds({}, 0)).toBe(true);
    expect(jsonDepthExceeds({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(jsonDepthExceeds({ a: [1, { b: 2 }] }, 2)).toBe(true);
  });

  it("walks 100,000 levels without recursion", () => {
    const n = 100_000;
    const value = JSON.parse("[".repeat(n) + "]".repeat(n));
    expect(jsonDepthExceeds(value, 64)).toBe(true);
  });

  it("sees keys such as __proto__ that JSON.parse makes own properties", () => {
    const value = JSON.parse(`{"__proto__":${"[".repeat(10)}${"]".repeat(10)}}`);
    expect(jsonDepthExceeds(value, 5)).toBe(true);
  });
});
