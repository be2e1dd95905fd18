import { describe, expect, it } from "vitest";
import { valueAxis } from "./value-axis";

describe("valueAxis", () => {
  it("ends at a round number at or above the largest value, with round whole ticks from 0", () => {
    const axis = valueAxis(1_234);
    expect(axis.max).toBe(1_500);
    expect(axis.ticks).toEqual([0, 500, 1_000, 1_500]);
    expect(valueAxis(87).max).toBe(100);
    expect(valueAxis(100).max).toBe(100);
  });

  it("never shows a fractional tick for small counts", () => {
    const axis = valueAxis(3);
    expect(axis.max).toBeGreaterThanOrEqual(3);
    expect(axis.ticks.every(Number.isInteger)).toBe(true);
    expect(axis.ticks[0]).toBe(0);
    expect(axis.ticks.at(-1)).toBe(axis.max);
  });

  it("gives an empty or broken series an axis of 0..1 instead of a division by zero", () => {
    for (const largest of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const axis = valueAxis(largest);
      expect(axis.max, String(largest)).toBe(1);
      expect(axis.ticks).toEqual([0, 1]);
      expect(axis.top(0)).toBe("100%");
    }
  });

  it("places values as CSS percentages, clamped to the plot", () => {
    const axis = valueAxis(50);
    expect(axis.max).toBe(50);
    expect(axis.top(50)).toBe("0%");
    expect(axis.top(25)).toBe("50%");
    expect(axis.left(10)).toBe("20%");
    expect(axis.left(500)).toBe("100%");
    expect(axis.left(-1)).toBe("0%");
  });
});
