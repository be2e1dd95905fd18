import { describe, expect, it } from "vitest";
import { callIdentity, canonicalJson } from "./call-identity";

const base = { turnId: "t1", step: 0, position: 0, tool: "lookup", arguments: { a: 1 } };

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it("is the same text whatever the key order", () => {
    expect(canonicalJson(JSON.parse('{"x":1,"y":{"q":true,"p":"s"}}'))).toBe(
      canonicalJson(JSON.parse('{"y":{"p":"s","q":true},"x":1}')),
    );
  });

  it("follows JSON.stringify for undefined, non-finite numbers and escapes", () => {
    expect(canonicalJson({ a: undefined, b: [undefined, Number.NaN], c: 'é\n"' })).toBe(
      '{"b":[null,null],"c":"é\\n\\""}',
    );
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson(-0)).toBe("0");
  });

  it("keeps an own __proto__ key as data", () => {
    const parsed: unknown = JSON.parse('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it("refuses cycles and bigints instead of guessing", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
  });

  it("allows the same object twice when it is not a cycle", () => {
    const shared = { k: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"k":1},{"k":1}]');
  });
});

describe("callIdentity", () => {
  it("ignores argument key order", () => {
    expect(callIdentity({ ...base, arguments: { a: 1, b: 2 } })).toBe(
      callIdentity({ ...base, arguments: { b: 2, a: 1 } }),
    );
  });

  it("differs when any part differs", () => {
    const id = callIdentity(base);
    expect(callIdentity({ ...base, turnId: "t2" })).not.toBe(id);
    expect(callIdentity({ ...base, step: 1 })).not.toBe(id);
    expect(callIdentity({ ...base, position: 1 })).not.toBe(id);
    expect(callIdentity({ ...base, tool: "other" })).not.toBe(id);
    expect(callIdentity({ ...base, arguments: { a: 2 } })).not.toBe(id);
  });

  it("cannot be confused by separators inside a part", () => {
    const a = callIdentity({ ...base, turnId: 't1","0', tool: "x" });
    const b = callIdentity({ ...base, turnId: "t1", tool: '0","x' });
    expect(a).not.toBe(b);
  });

  it("tells raw unparseable text apart from the value it resembles", () => {
    expect(callIdentity({ ...base, arguments: '{"a":1}' })).not.toBe(callIdentity(base));
  });

  it("is plain JSON text", () => {
    expect(JSON.parse(callIdentity(base))).toEqual(["t1", 0, 0, "lookup", '{"a":1}']);
  });
});
