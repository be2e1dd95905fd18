import { describe, expect, it } from "vitest";
import { Limiter } from "./limiter";
import { sleep } from "./test-support";

describe("Limiter", () => {
  it("never holds more than capacity slots and reaches it", async () => {
    const limiter = new Limiter(3);
    let inFlight = 0;
    let max = 0;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limiter.run(async () => {
          inFlight += 1;
          max = Math.max(max, inFlight);
          await sleep(2 + (i % 3));
          inFlight -= 1;
        }),
      ),
    );
    expect(max).toBe(3);
    expect(limiter.active).toBe(0);
    expect(limiter.pending).toBe(0);
  });

  it("serves waiters first come, first served", async () => {
    const limiter = new Limiter(1);
    const order: number[] = [];
    const first = await limiter.acquire();
    const waiting = [1, 2, 3].map((n) => limiter.acquire().then((release) => (order.push(n), release())));
    expect(limiter.pending).toBe(3);
    first();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
  });

  it("drops a waiter whose signal aborts, which then never takes a slot", async () => {
    const limiter = new Limiter(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
    expect(limiter.pending).toBe(1);
    held();
    const release = await next;
    expect(limiter.active).toBe(1);
    release();
    expect(limiter.active).toBe(0);
  });

  it("rejects at once with an already-aborted signal", async () => {
    const limiter = new Limiter(2);
    await expect(limiter.acquire(AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
    expect(limiter.active).toBe(0);
  });

  it("counts a release only once", async () => {
    const limiter = new Limiter(1);
    const release = await limiter.acquire();
    const waiter = limiter.acquire();
    release();
    release();
    await waiter;
    expect(limiter.active).toBe(1);
  });

  it("releases the slot when the task throws", async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(limiter.active).toBe(0);
  });

  it("refuses a capacity that is not an integer >= 1", () => {
    expect(() => new Limiter(0)).toThrow(RangeError);
    expect(() => new Limiter(1.5)).toThrow(RangeError);
    expect(() => new Limiter(Number.NaN)).toThrow(RangeError);
  });
});
