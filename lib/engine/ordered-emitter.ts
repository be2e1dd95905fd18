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

  /** The first error the sink raised, if any. */
  get error(): Error | undefined {
    return this.#error;
  }

  /**
   * Queues `event` now (its place in the order is fixed by this call) and resolves once it,
   * and everything queued before it, has been handed to the sink. Never rejects.
   */
  emit(event: EngineEvent): Promise<void> {
    const delivered = this.#tail.then(async () => {
      try {
        await this.#sink.emit(event);
      } catch (error) {
        this.#error ??= error instanceof Error ? error : new Error(String(error));
      }
    });
    this.#tail = delivered;
    return delivered;
  }

  /** Resolves when every event queued so far has been delivered. */
  flush(): Promise<void> {
    return this.#tail;
  }
}
