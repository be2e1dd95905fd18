import type { EngineEvent, EventSink } from "./ports";

/**
 * The turn's side of the EventSink port. Every event is handed to the sink the moment it is
 * emitted, so the sink sees the emission order; the engine then either waits until the event
 * is durable (`record`) or goes on at once (`post`). A sink failure never rejects: it is kept
 * in `error` (the turn fails on it) and later events are still handed over, so a sink that
 * recovers still receives the terminal event.
 */
export class EventLog {
  readonly #sink: EventSink;
  /** Settles once every event handed over so far is durable (or failed). */
  #durable: Promise<void> = Promise.resolve();
  #error: Error | undefined;

  constructor(sink: EventSink) {
    this.#sink = sink;
  }

  /** The first error the sink raised, if any. */
  get error(): Error | undefined {
    return this.#error;
  }

  /** Records `event`; resolves once it, and every event before it, is durable. Never rejects. */
  record(event: EngineEvent): Promise<void> {
    const previous = this.#durable;
    const written = this.#handOver(event);
    this.#durable = previous.then(() => written);
    return this.#durable;
  }

  /** Records `event` without waiting for it to be durable (its failure still fails the turn). */
  post(event: EngineEvent): void {
    void this.record(event);
  }

  async #handOver(event: EngineEvent): Promise<void> {
    try {
      await this.#sink.emit(event);
    } catch (error) {
      this.#error ??= error instanceof Error ? error : new Error(String(error));
    }
  }
}
