import { describe, expect, it } from "vitest";
import { callOutcome, egressOf, kindOf } from "./call-outcome";

describe("callOutcome", () => {
  it("names each of the five outcomes", () => {
    expect(callOutcome({ ok: true })).toBe("ok");
    expect(callOutcome({ ok: true, halted: true })).toBe("halted");
    expect(callOutcome({ ok: false })).toBe("error");
    const blocked = { egress: { verdict: "blocked", rule: "private-address", hint: "x" } };
    expect(callOutcome({ ok: false, record: blocked })).toBe("blocked");
    expect(callOutcome({ ok: false, rejected: true, record: blocked })).toBe("rejected");
  });

  it("reads an allowed egress verdict as no block", () => {
    expect(callOutcome({ ok: false, record: { egress: { verdict: "allowed", rule: "public" } } })).toBe("error");
  });

  it("survives records of the wrong shape", () => {
    for (const record of [null, 1, "x", [], { egress: [] }, { egress: { verdict: 1 } }]) {
      expect(callOutcome({ ok: false, record })).toBe("error");
      expect(egressOf(record)).toBeUndefined();
    }
    expect(kindOf({ kind: "mcp" })).toBe("mcp");
    expect(kindOf(undefined)).toBe("unknown");
  });
});
