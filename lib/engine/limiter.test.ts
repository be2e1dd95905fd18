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

describe("Limiter and shared abort signals", () => {
  it("keeps one abort listener per signal however many calls wait on it, and removes it when done", async () => {
    const limiter = new Limiter(1);
    const controller = new AbortController();
    const added: string[] = [];
    const removed: string[] = [];
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, ...rest: [EventListener, AddEventListenerOptions?]) => {
      added.push(type);
      add(type, ...rest);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, ...rest: [EventListener]) => {
      removed.push(type);
      remove(type, ...rest);
    }) as typeof signal.removeEventListener;

    const first = await limiter.acquire(signal);
    const waiting = Array.from({ length: 20 }, () => limiter.acquire(signal));
    expect(added).toEqual(["abort"]);
    first();
    for (const pending of waiting) (await pending)();
    expect(removed).toEqual(["abort"]);
  });

  it("rejects every waiter of an aborted signal and leaves other waiters queued", async () => {
    const limiter = new Limiter(1);
    const a = new AbortController();
    const b = new AbortController();
    const held = await limiter.acquire();
    const onA = [limiter.acquire(a.signal), limiter.acquire(a.signal)];
    const onB = limiter.acquire(b.signal);
    a.abort(new Error("stop a"));
    for (const p of onA) await expect(p).rejects.toThrow("stop a");
    expect(limiter.pending).toBe(1);
    held();
    (await onB)();
    expect(limiter.active).toBe(0);
  });
});
