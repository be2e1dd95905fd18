/**
 * The whole-call deadline of a guarded request: one timer plus the caller's
 * cancellation, behind one abort signal (`signal`). Unlike
 * AbortSignal.timeout, its timer is cleared by dispose(), so a busy process does
 * not carry one live timer per finished request until it would have expired, and
 * it says which of the two fired (`timedOut`).
 *
 * The signal is the deadline object itself, not an AbortController's: in Node 20
 * creating an AbortController and its signal, and adding and removing one
 * listener, costs about 4 µs, a visible share of a ~200 µs loopback call. What
 * reads the signal needs only {@link AbortSignalLike}: the destination check,
 * sendWithRedirects, and undici's `request()`, which accepts any `signal` with
 * `addEventListener`/`removeEventListener` plus `aborted`/`reason` (it checks
 * `aborted` up front and listens for "abort" until the body closes). The
 * "bounds the whole call" tests in guarded-request.test.ts hold that contract.
 */

/** The subset of AbortSignal the guard relies on; every AbortSignal satisfies it. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

function fire(deadline: CallDeadline): void {
  deadline.expire();
}

/** Fires at `ms` or when `parent` aborts, whichever comes first. */
export class CallDeadline implements AbortSignalLike {
  /** The deadline itself fired (as opposed to the parent). */
  timedOut = false;
  #aborted = false;
  #reason: unknown = undefined;
  // "abort" listeners, in the order added (a signal fires at most once, so
  // every listener is effectively `once`).
  #listeners: (() => void)[] = [];
  readonly #timer: NodeJS.Timeout;
  readonly #parent: AbortSignal | undefined;
  readonly #onParentAbort: (() => void) | undefined;

  constructor(
    private readonly ms: number,
    parent?: AbortSignal,
  ) {
    this.#timer = setTimeout(fire, ms, this);
    this.#parent = parent;
    if (parent) {
      this.#onParentAbort = () => this.#abort(parent.reason);
      if (parent.aborted) this.#abort(parent.reason);
      else parent.addEventListener("abort", this.#onParentAbort, { once: true });
    }
  }

  /** Aborts when the deadline passes or the parent aborts (the deadline itself). */
  get signal(): AbortSignalLike {
    return this;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Called by the timer. */
  expire(): void {
    if (this.#aborted) return;
    this.timedOut = true;
    this.#abort(new DOMException(`request timed out after ${this.ms} ms`, "TimeoutError"));
  }

  /** Clears the timer and the parent listener; call when the request is over. */
  dispose(): void {
    clearTimeout(this.#timer);
    if (this.#onParentAbort) this.#parent?.removeEventListener("abort", this.#onParentAbort);
  }

  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** As AbortSignal's: a listener is called once, and not at all if added after the abort. */
  addEventListener(type: "abort", listener: () => void): void {
    if (type === "abort" && !this.#aborted && !this.#listeners.includes(listener)) this.#listeners.push(listener);
  }

  removeEventListener(type: "abort", listener: () => void): void {
    if (type !== "abort") return;
    const i = this.#listeners.indexOf(listener);
    if (i !== -1) this.#listeners.splice(i, 1);
  }

  #abort(reason: unknown): void {
    if (this.#aborted) return;
    clearTimeout(this.#timer);
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        // As an EventTarget does: the other listeners still run, the error still surfaces.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
