import { describe, expect, it } from "vitest";
import { overviewWindow, quantileOfCounts } from "./overview-window";

describe("overviewWindow", () => {
  it("knows 1h, 24h and 7d and falls back to 24h", () => {
    const now = Date.UTC(2026, 11, 1, 10, 17);
    expect(overviewWindow("1h", now)).toMatchObject({ key: "1h", buckets: 60, bucketMs: 60_000 });
    expect(overviewWindow("7d", now)).toMatchObject({ key: "7d", buckets: 84 });
    for (const bad of [undefined, "", "2h", "__proto__", "constructor"])
      expect(overviewWindow(bad, now).key).toBe("24h");
  });

  it("ends on a bucket boundary at or after now", () => {
    const now = Date.UTC(2026, 11, 1, 10, 17, 30);
    const w = overviewWindow("1h", now);
    expect(w.until).toBe(Date.UTC(2026, 11, 1, 10, 18));
    expect(w.until - w.since).toBe(3_600_000);
  });
});

describe("quantileOfCounts", () => {
  it("is exact by nearest rank", () => {
    const counts: Array<[number, number]> = [
      [10, 50],
      [20, 45],
      [500, 5],
    ];
    expect(quantileOfCounts(counts, 0.5)).toBe(10);
    expect(quantileOfCounts(counts, 0.95)).toBe(20);
    expect(quantileOfCounts(counts, 0.96)).toBe(500);
    expect(quantileOfCounts([[7, 1]], 0.95)).toBe(7);
    expect(quantileOfCounts([], 0.5)).toBeUndefined();
  });
});
