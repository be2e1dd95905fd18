import { describe, expect, it } from "vitest";
import { copyArguments } from "./copy-arguments";

// What copyArguments promises: exactly the JSON round trip (null when it throws or for undefined).
function roundTrip(args: unknown): unknown {
  try {
    return args === undefined ? null : (JSON.parse(JSON.stringify(args)) as unknown);
  } catch {
    return null;
  }
}

// Same value, same key order, same own-property layout (JSON.stringify alone would hide `__proto__`).
function expectSameAsRoundTrip(args: unknown): void {
  const copy = copyArguments(args);
  const expected = roundTrip(args);
  expect(copy).toStrictEqual(expected);
  if (copy !== null && typeof copy === "object") {
    expect(Reflect.ownKeys(copy)).toEqual(Reflect.ownKeys(expected as object));
    expect(Object.getPrototypeOf(copy)).toBe(Object.getPrototypeOf(expected));
  }
}

describe("copyArguments", () => {
  it("copies flat scalar arguments exactly as the JSON round trip does", () => {
    const cases: unknown[] = [
      { id: "42" },
      {},
      { a: 1, b: true, c: null, d: "x", e: 1.5e300, f: -7 },
      { neg0: -0, nan: NaN, inf: Infinity, minf: -Infinity },
      { gone: undefined, fn: () => 1, sym: Symbol("s"), kept: "k" },
      { 2: "two", b: "b", 1: "one", a: "a" },
      { lone: "\ud800", emoji: "😀", nul: "\u0000" },
      JSON.parse('{"__proto__": "p", "x": 1}'),
      JSON.parse('{"__proto__": {"polluted": true}}'),
    ];
    for (const args of cases) expectSameAsRoundTrip(args);
    expect(Object.is((copyArguments({ z: -0 }) as { z: number }).z, 0)).toBe(true);
  });

  it("falls back to the round trip for nested values, toJSON, non-plain objects, bigint and undefined", () => {
    const cases: unknown[] = [
      { items: [1, { a: 2 }], meta: { n: 1, when: new Date(0) } },
      { toJSON: () => ({ replaced: true }) },
      Object.assign(Object.create({ toJSON: () => "inherited" }), { a: 1 }),
      Object.assign(Object.create(null), { a: 1 }),
      [1, "two"],
      "text",
      7,
      null,
      undefined,
      { big: 1n },
      new Map([["a", 1]]),
    ];
    for (const args of cases) expectSameAsRoundTrip(args);
  });

  it("is immune to later mutation and never throws", () => {
    const args = { id: "1" };
    const copy = copyArguments(args);
    args.id = "2";
    expect(copy).toEqual({ id: "1" });
    const throwing = Object.defineProperty({}, "x", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(copyArguments(throwing)).toBeNull();
  });
});
