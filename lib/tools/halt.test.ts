import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalScalar, evaluateHalt } from "@/lib/tools/halt";
import type { HaltWhen } from "@/lib/tools/types";

const subscribed: HaltWhen = { json_path: "tool_result.status", equals: ["SUBSCRIBED"] };
const body = (v: unknown) => JSON.stringify(v);

describe("evaluateHalt", () => {
  it("halts on a matching 2xx response, with a reason and no say", () => {
    expect(evaluateHalt(subscribed, 200, body({ status: "SUBSCRIBED" }))).toEqual({
      halt: true,
      say: null,
      reason: 'tool_result.status = "SUBSCRIBED"',
    });
    expect(evaluateHalt(subscribed, 201, body({ status: "SUBSCRIBED" })).halt).toBe(true);
  });

  it("does not halt on another value: one tool, two endings", () => {
    expect(evaluateHalt(subscribed, 200, body({ status: "SUBSCRIPTION_FAILED" }))).toEqual({ halt: false });
    expect(evaluateHalt(subscribed, 200, body({ status: "subscribed" }))).toEqual({ halt: false });
  });

  it("only fires on a 2xx", () => {
    for (const status of [199, 300, 404, 500, 200.5, Number.NaN]) {
      expect(evaluateHalt(subscribed, status, body({ status: "SUBSCRIBED" }))).toEqual({ halt: false });
    }
  });

  it("never halts on a non-JSON body or a missing path", () => {
    expect(evaluateHalt(subscribed, 200, "SUBSCRIBED")).toEqual({ halt: false });
    expect(evaluateHalt(subscribed, 200, "")).toEqual({ halt: false });
    expect(evaluateHalt(subscribed, 200, body({ state: "SUBSCRIBED" }))).toEqual({ halt: false });
    expect(evaluateHalt(subscribed, 200, body(["SUBSCRIBED"]))).toEqual({ halt: false });
  });

  it("compares canonical string forms", () => {
    const rule = (equals: string[]): HaltWhen => ({ json_path: "$.v", equals });
    expect(evaluateHalt(rule(["true"]), 200, '{"v": true}').halt).toBe(true);
    expect(evaluateHalt(rule(["1"]), 200, '{"v": 1}').halt).toBe(true);
    expect(evaluateHalt(rule(["1"]), 200, '{"v": 1.0}').halt).toBe(true);
    expect(evaluateHalt(rule(["1.5"]), 200, '{"v": 1.50}').halt).toBe(true);
    expect(evaluateHalt(rule(["1"]), 200, '{"v": "1"}').halt).toBe(true);
    expect(evaluateHalt(rule(["1.0"]), 200, '{"v": 1.0}').halt).toBe(false);
    expect(evaluateHalt(rule([" ok"]), 200, '{"v": "ok"}').halt).toBe(false);
  });

  it("never matches null, objects or arrays", () => {
    const rule: HaltWhen = { json_path: "$.v", equals: ["null", "[object Object]", "", "a,b", "{}", "[]"] };
    for (const v of ["null", "{}", "[]", '["a","b"]', '{"a":1}']) {
      expect(evaluateHalt(rule, 200, `{"v": ${v}}`)).toEqual({ halt: false });
    }
  });

  it("publishes say.text literally", () => {
    const rule: HaltWhen = { json_path: "tool_result", equals: ["x"], say: { text: "CALL_SUPPORT" } };
    expect(evaluateHalt(rule, 200, '"x"')).toEqual({ halt: true, say: "CALL_SUPPORT", reason: 'tool_result = "x"' });
  });

  it("publishes say.json_path only when it resolves to a non-blank string", () => {
    const rule: HaltWhen = { ...subscribed, say: { json_path: "tool_result.message" } };
    const run = (message: unknown) =>
      evaluateHalt(
        rule,
        200,
        body(message === undefined ? { status: "SUBSCRIBED" } : { status: "SUBSCRIBED", message }),
      );
    expect(run("You are in!")).toMatchObject({ halt: true, say: "You are in!" });
    expect(run("  ")).toMatchObject({ halt: true, say: null });
    expect(run(42)).toMatchObject({ halt: true, say: null });
    expect(run({ text: "hi" })).toMatchObject({ halt: true, say: null });
    expect(run(null)).toMatchObject({ halt: true, say: null });
    expect(run(undefined)).toMatchObject({ halt: true, say: null });
  });

  it("does not halt without a rule, and survives malformed rules and bodies", () => {
    expect(evaluateHalt(undefined, 200, "{}")).toEqual({ halt: false });
    expect(evaluateHalt(null, 200, "{}")).toEqual({ halt: false });
    expect(evaluateHalt({ json_path: "$.", equals: [""] }, 200, '{"":""}')).toEqual({ halt: false });
    expect(evaluateHalt({ json_path: "$.v" } as unknown as HaltWhen, 200, '{"v":"x"}')).toEqual({ halt: false });
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 100, max: 599 }), fc.string(), (rule, status, text) => {
        const v = evaluateHalt(rule as HaltWhen, status, text);
        expect(typeof v.halt).toBe("boolean");
      }),
      { numRuns: 300 },
    );
  });
});

describe("canonicalScalar", () => {
  it("gives JSON forms for numbers and none for non-scalars", () => {
    expect(canonicalScalar(1.5)).toBe("1.5");
    expect(canonicalScalar(1e21)).toBe("1e+21");
    expect(canonicalScalar(false)).toBe("false");
    expect(canonicalScalar("A")).toBe("A");
    expect(canonicalScalar(null)).toBeNull();
    expect(canonicalScalar([1])).toBeNull();
    expect(canonicalScalar(Number.POSITIVE_INFINITY)).toBeNull();
  });
});
