/**
 * Trace ids derived from turn ids, so every run of a turn (the first, and each resume after
 * an approval or a crash) lands in the same trace: one trace per turn. Span ids stay random.
 * The SDK asks its IdGenerator for a trace id synchronously inside startSpan, so the id to
 * use is handed over in a slot set just before that call (single-threaded: nothing runs between).
 */
import { createHash } from "node:crypto";
import { RandomIdGenerator, type IdGenerator } from "@opentelemetry/sdk-trace-base";

/** 32 lowercase hex digits, never all zero (an invalid trace id). */
export function traceIdOfTurn(turnId: string): string {
  const hex = createHash("sha256").update(`insika-turn:${turnId}`).digest("hex").slice(0, 32);
  return /^0+$/.test(hex) ? "00000000000000000000000000000001" : hex;
}

export class TurnIdGenerator implements IdGenerator {
  readonly #random = new RandomIdGenerator();
  #next: string | undefined;

  /** Runs `start` (a startSpan of a root span) with `traceId` as the trace id it gets. */
  withTraceId<T>(traceId: string, start: () => T): T {
    this.#next = traceId;
    try {
      return start();
    } finally {
      this.#next = undefined;
    }
  }

  generateTraceId(): string {
    return this.#next ?? this.#random.generateTraceId();
  }

  generateSpanId(): string {
    return this.#random.generateSpanId();
  }
}
