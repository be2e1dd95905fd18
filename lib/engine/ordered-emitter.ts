import type { EngineEvent, EventSink } from "./ports";

/**
 * Delivers events to a (possibly async) sink strictly one after another, in the order
 * `emit` was called, so persistence sees exactly the emission order even when concurrent
 * tool calls emit at once and the sink is slow. A sink failure never rejects: it is kept
 * in `error` (the turn fails on it) and later events are still attempted, so a sink that
 * recovers still receives the terminal event.
 */
export class OrderedEmitter {
  readonly #sink: EventSink;
  #tail: Promise<void> = Promise.resolve();
  #error: Error | undefined;

  constructor(sink: EventSink) {
    this.#sink = sink;
  }

  /**
   * Queues `event` and resolves once the sink has it: at once for an ordered sink (which
   * then persists it in order on its own), else once it has been delivered. For events that
   * must reach the sink before the engine goes on, without waiting for their persistence.
   */
  handOff(event: EngineEvent): Promise<void> {
    const delivered = this.emit(event);
    return this.#sink.ordered ? Promise.resolve() : delivered;
  }

  /** The first error the sink raised, if any. */
  get error(): Error | undefined {
    return this.#error;
  }

  /**
   * Queues `event` now (its place in the order is fixed by this call) and resolves once it,
   * and everything queued before it, has been handed to the sink. Never rejects. A sink
   * that keeps the order itself (`ordered`) is handed the event at once.
   */
  emit(event: EngineEvent): Promise<void> {
    const delivered = this.#sink.ordered ? this.#deliverNow(event) : this.#tail.then(() => this.#deliver(event));
    this.#tail = delivered;
    return delivered;
  }

  async #deliver(event: EngineEvent): Promise<void> {
    try {
      await this.#sink.emit(event);
    } catch (error) {
      this.#error ??= error instanceof Error ? error : new Error(String(error));
    }
  }

  #deliverNow(event: EngineEvent): Promise<void> {
    const previous = this.#tail;
    const delivering = this.#deliver(event);
    return previous.then(() => delivering);
  }

  /**
   * Resolves once the sink has every event queued so far: at once for an ordered sink,
   * else once they have been delivered (flush).
   */
  handedOff(): Promise<void> {
    return this.#sink.ordered ? Promise.resolve() : this.#tail;
  }

  /** Resolves when every event queued so far has been delivered. */
  flush(): Promise<void> {
    return this.#tail;
  }
}
