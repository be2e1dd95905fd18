import { describe, expect, it } from "vitest";
import { toJsonValue } from "@/lib/tools/to-json-value";

describe("toJsonValue", () => {
  it("deep-copies JSON values", () => {
    const input = { a: [1, "x", true, null, { b: {} }] };
    const r = toJsonValue(input);
    expect(r).toEqual({ ok: true, value: input });
    if (r.ok) expect((r.value as { a: unknown[] }).a).not.toBe(input.a);
  });

  it("drops undefined-valued properties but refuses holes and undefined in arrays", () => {
    expect(toJsonValue({ a: undefined, b: 1 })).toEqual({ ok: true, value: { b: 1 } });
    expect(toJsonValue({ l: [1, undefined] })).toEqual({ ok: false, error: "l[1]: missing value" });
    // eslint-disable-next-line no-sparse-arrays
    expect(toJsonValue([1, , 2])).toEqual({ ok: false, error: "[1]: missing value" });
  });

  it("refuses what JSON cannot hold, naming the path", () => {
    expect(toJsonValue({ a: { b: Number.POSITIVE_INFINITY } })).toEqual({
      ok: false,
      error: "a.b: Infinity is not a JSON number",
    });
    expect(toJsonValue({ m: new Map() })).toEqual({ ok: false, error: "m: not a JSON value (Map)" });
    expect(toJsonValue(10n)).toEqual({ ok: false, error: "the value: a bigint is not a JSON value" });
    expect(toJsonValue({ s: Symbol("x") })).toEqual({ ok: false, error: "s: a symbol is not a JSON value" });
  });

  it("keeps __proto__ as an own data key and accepts null-prototype objects", () => {
    const r = toJsonValue(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(Object.keys(r.value as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(toJsonValue(Object.assign(Object.create(null), { a: 1 }))).toEqual({ ok: true, value: { a: 1 } });
  });

  it("bounds depth and size, and catches cycles and throwing getters", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i += 1) deep = [deep];
    expect(toJsonValue(deep)).toEqual({ ok: false, error: "nested too deeply (more than 64 levels)" });
    expect(toJsonValue(new Array(100_001).fill(0))).toEqual({
      ok: false,
      error: "too large (more than 100000 values)",
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toJsonValue(cyclic).ok).toBe(false);
    const hostile = {
      get a() {
        throw new Error("boom");
      },
    };
    expect(toJsonValue(hostile)).toEqual({ ok: false, error: "could not be read (boom)" });
  });
});
