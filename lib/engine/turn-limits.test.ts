import { describe, expect, it } from "vitest";
import { formatSeconds, resolveTurnLimits, timeoutMs } from "./turn-limits";

describe("resolveTurnLimits", () => {
  it("fills the reference defaults", () => {
    expect(resolveTurnLimits(undefined)).toEqual({
      tool_concurrency: 1,
      max_tool_calls: 50,
      turn_timeout: 300,
      tool_timeout: 60,
    });
    expect(resolveTurnLimits({ tool_concurrency: 4 }).max_tool_calls).toBe(50);
  });

  it("accepts fractional seconds and a zero call budget", () => {
    expect(resolveTurnLimits({ turn_timeout: 0.05, tool_timeout: 0.01, max_tool_calls: 0 })).toMatchObject({
      turn_timeout: 0.05,
      tool_timeout: 0.01,
      max_tool_calls: 0,
    });
  });

  it.each([
    [{ tool_concurrency: 0 }, "tool_concurrency"],
    [{ tool_concurrency: 2.5 }, "tool_concurrency"],
    [{ max_tool_calls: -1 }, "max_tool_calls"],
    [{ turn_timeout: 0 }, "turn_timeout"],
    [{ tool_timeout: Number.POSITIVE_INFINITY }, "tool_timeout"],
    [{ tool_timeout: Number.NaN }, "tool_timeout"],
  ])("names the bad limit in %j", (limits, name) => {
    expect(() => resolveTurnLimits(limits)).toThrow(name);
  });
});

describe("formatSeconds / timeoutMs", () => {
  it("writes seconds without a trailing .0", () => {
    expect(formatSeconds(60)).toBe("60");
    expect(formatSeconds(60.0)).toBe("60");
    expect(formatSeconds(1.5)).toBe("1.5");
    expect(formatSeconds(0.05)).toBe("0.05");
    expect(formatSeconds(1 / 3)).toBe("0.333"); // to the millisecond, as every message writes it
  });

  it("clamps what a timer cannot hold", () => {
    expect(timeoutMs(0.05)).toBe(50);
    expect(timeoutMs(1e12)).toBe(2_147_483_647);
  });
});
