import { describe, expect, it } from "vitest";
import { gather } from "./gather";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("gather", () => {
  it("keeps input order and never exceeds the concurrency", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await gather(
      [30, 5, 20, 1, 10],
      async (ms, index) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await sleep(ms);
        inFlight -= 1;
        return index * 2;
      },
      { concurrency: 2 },
    );
    expect(out).toEqual([0, 2, 4, 6, 8]);
    expect(peak).toBe(2);
  });

  it("rejects on the first failure, starts nothing more and aborts the running calls", async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    const run = gather(
      [0, 1, 2, 3],
      async (item, _index, signal) => {
        started.push(item);
        if (item === 1) throw new Error("boom");
        await new Promise<void>((resolve) => {
          signal.addEventListener("abort", () => (aborted.push(item), resolve()), { once: true });
          setTimeout(resolve, 200);
        });
        return item;
      },
      { concurrency: 2 },
    );
    await expect(run).rejects.toThrow("boom");
    expect(started).toEqual([0, 1]);
    expect(aborted).toEqual([0]);
  });

  it("honours the caller's signal and refuses a bad concurrency", async () => {
    const controller = new AbortController();
    const run = gather([1, 2], () => sleep(50), { signal: controller.signal });
    controller.abort(new Error("cancelled"));
    await expect(run).rejects.toThrow("cancelled");
    await expect(gather([1], (x) => x, { concurrency: 0 })).rejects.toThrow(RangeError);
    expect(await gather([], (x) => x)).toEqual([]);
  });
});
