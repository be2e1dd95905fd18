/**
 * The whole-call deadline of a guarded request: one timer plus the caller's
 * cancellation, behind one real AbortSignal (`signal`). Unlike
 * AbortSignal.timeout, its timer is cleared by dispose(), so a busy process does
 * not carry one live timer per finished request until it would have expired, and
 * it says which of the two fired (`timedOut`).
 */

/** The subset of AbortSignal the destination check relies on; every AbortSignal satisfies it. */
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
export class CallDeadline {
  /** The deadline itself fired (as opposed to the parent). */
  timedOut = false;
  readonly #controller = new AbortController();
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

  /** Aborts when the deadline passes or the parent aborts. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Called by the timer. */
  expire(): void {
    if (this.#controller.signal.aborted) return;
    this.timedOut = true;
    this.#abort(new DOMException(`request timed out after ${this.ms} ms`, "TimeoutError"));
  }

  /** Clears the timer and the parent listener; call when the request is over. */
  dispose(): void {
    clearTimeout(this.#timer);
    if (this.#onParentAbort) this.#parent?.removeEventListener("abort", this.#onParentAbort);
  }

  #abort(reason: unknown): void {
    clearTimeout(this.#timer);
    this.#controller.abort(reason);
  }
}
