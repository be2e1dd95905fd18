/**
 * A counting semaphore for tool calls: at most `capacity` holders at once,
 * waiters served first come, first served (so a batch starts in call order).
 */

/** Gives back a slot; calling it more than once is harmless (only the first call counts). */
export type Release = () => void;

interface Waiter {
  grant: () => void;
}

/**
 * At most `capacity` slots held at any moment, never more. One instance per turn: every
 * enveloped call of the turn (including tools promoted mid-turn) goes through the same one,
 * which is what makes tool_concurrency a per-turn cap rather than a per-batch one.
 */
export class Limiter {
  readonly capacity: number;
  #active = 0;
  readonly #waiters: Waiter[] = [];

  /** Throws a RangeError unless `capacity` is an integer >= 1. */
  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`limiter capacity must be an integer >= 1, got ${capacity}`);
    }
    this.capacity = capacity;
  }

  /** Slots currently held. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot. */
  get pending(): number {
    return this.#waiters.length;
  }

  /**
   * Resolves with a release function once a slot is held. Rejects with `signal.reason` if the
   * signal aborts first (the waiter leaves the queue and never takes a slot).
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Queue behind existing waiters even when a slot looks free: FIFO must hold.
    if (this.#active < this.capacity && this.#waiters.length === 0) {
      this.#active += 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.#active += 1;
          resolve(this.#releaser());
        },
      };
      this.#waiters.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Runs `fn` holding a slot; the slot is released however `fn` ends. */
  async run<T>(fn: () => Promise<T> | T, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active -= 1;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#active < this.capacity) {
      const next = this.#waiters.shift();
      if (!next) return;
      next.grant();
    }
  }
}
