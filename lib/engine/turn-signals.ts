import { setMaxListeners } from "node:events";
import { TurnFailure } from "./turn-failure";
import { formatSeconds, timeoutMs } from "./turn-limits";
import { errorMessage } from "@/lib/errors";

// Listeners a signal holds besides one per call in flight: the batch's and the model step's.
const OWN_LISTENERS = 4;
// Node warns of a leak past 10 listeners on one signal.
const NODE_DEFAULT_MAX_LISTENERS = 10;

/**
 * The two ways a turn is stopped from outside its own logic: the caller's signal
 * (`turn cancelled`) and the turn deadline (`turn timed out after Ns`). They are kept apart
 * because they treat running tool calls differently: a cancellation aborts every call, the
 * deadline aborts a serial call but waits for parallel in-flight ones (spec, "Parallel tool
 * calls"). Call `dispose()` when the turn ends.
 */
export class TurnSignals {
  readonly #cancel = new AbortController();
  // Aborted by whichever comes first; a second abort() is a no-op, so its reason says which.
  readonly #stop = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #unlink: () => void;
  /** Aborts on cancellation only. */
  readonly cancelled: AbortSignal = this.#cancel.signal;
  /** Aborts on cancellation or the deadline, whichever comes first (its reason says which). */
  readonly stopped: AbortSignal = this.#stop.signal;

  /** Starts the deadline clock now. `toolConcurrency`: the calls that may be in flight at once. */
  constructor(options: { turnTimeoutS: number; external?: AbortSignal; toolConcurrency: number }) {
    // Each call in flight follows one of them (followSignal), so a parallel batch puts up to
    // tool_concurrency listeners on a signal, each removed as its call ends (follow-signal.test.ts,
    // run-turn-parallel.test.ts). Raised only when needed: setting it costs a few µs a turn.
    const listeners = options.toolConcurrency + OWN_LISTENERS;
    if (listeners > NODE_DEFAULT_MAX_LISTENERS) setMaxListeners(listeners, this.cancelled, this.stopped);
    const timedOut = () =>
      this.#stop.abort(new TurnFailure("turn_timeout", `turn timed out after ${formatSeconds(options.turnTimeoutS)}s`));
    this.#timer = setTimeout(timedOut, timeoutMs(options.turnTimeoutS));
    const external = options.external;
    const onCancel = () => {
      const reason = new TurnFailure("cancelled", "turn cancelled");
      this.#cancel.abort(reason);
      this.#stop.abort(reason);
    };
    if (external?.aborted) onCancel();
    else external?.addEventListener("abort", onCancel, { once: true });
    this.#unlink = () => external?.removeEventListener("abort", onCancel);
  }

  /** Why the turn was stopped from outside (a timeout or a cancellation), else undefined. */
  get failure(): TurnFailure | undefined {
    if (!this.stopped.aborted) return undefined;
    const reason: unknown = this.stopped.reason;
    return reason instanceof TurnFailure ? reason : new TurnFailure("internal_error", errorMessage(reason));
  }

  /** Throws the stop reason if the turn was stopped (use between awaits). */
  throwIfStopped(): void {
    this.stopped.throwIfAborted();
  }

  /** Stops the deadline timer and forgets the caller's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#unlink();
  }
}
