/**
 * A counting semaphore for tool calls: at most `capacity` holders at once,
 * waiters served first come, first served (so a batch starts in call order).
 */

/** Gives back a slot; calling it more than once is harmless (only the first call counts). */
export type Release = () => void;

interface Waiter {
  grant: () => void;
  abort: (reason: unknown) => void;
  signal: AbortSignal | undefined;
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
  /**
   * One abort listener per signal, however many waiters share it (a turn's calls all share the
   * turn's signal: a listener each would trip Node's MaxListenersExceededWarning past 10).
   */
  readonly #listening = new Map<AbortSignal, () => void>();

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
      this.#waiters.push({
        signal,
        abort: reject,
        grant: () => {
          this.#active += 1;
          resolve(this.#releaser());
        },
      });
      if (signal) this.#listen(signal);
    });
  }

  #listen(signal: AbortSignal): void {
    if (this.#listening.has(signal)) return;
    const onAbort = () => {
      this.#listening.delete(signal);
      // Every waiter on this signal leaves the queue and never takes a slot.
      for (const waiter of this.#waiters.filter((w) => w.signal === signal)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.abort(signal.reason);
      }
    };
    this.#listening.set(signal, onAbort);
    signal.addEventListener("abort", onAbort, { once: true });
  }

  /** Drops the abort listener of a signal no waiter uses any more. */
  #unlisten(signal: AbortSignal | undefined): void {
    if (!signal || this.#waiters.some((w) => w.signal === signal)) return;
    const onAbort = this.#listening.get(signal);
    if (onAbort) signal.removeEventListener("abort", onAbort);
    this.#listening.delete(signal);
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
      this.#unlisten(next.signal);
      next.grant();
    }
  }
}
