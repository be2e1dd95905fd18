/**
 * A batch span processor that can never hold a turn up or grow without bound: spans wait in
 * at most `maxQueueSize` places (the SDK's BatchSpanProcessor, exporting on its own timer);
 * a span that finds the queue full is dropped at once and counted, and every span an export
 * failed to deliver is counted too. The SDK's processor also drops on a full queue but only
 * logs it; keeping the count here (spans handed on minus spans handed to the exporter) makes
 * the drops a metric (`insika_otel_spans_dropped_total`).
 */
import type { Context } from "@opentelemetry/api";
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export type DropReason = "queue_full" | "export_failed";

export interface BoundedSpanProcessorOptions {
  exporter: SpanExporter;
  maxQueueSize: number;
  maxExportBatchSize: number;
  scheduledDelayMillis: number;
  exportTimeoutMillis: number;
  /** Told of every dropped span (n at a time). */
  onDrop: (reason: DropReason, n: number) => void;
}

export class BoundedSpanProcessor implements SpanProcessor {
  readonly #inner: BatchSpanProcessor;
  readonly #max: number;
  readonly #onDrop: BoundedSpanProcessorOptions["onDrop"];
  /** Spans handed to the batch processor that the exporter has not been given yet. */
  #queued = 0;

  constructor(options: BoundedSpanProcessorOptions) {
    this.#max = options.maxQueueSize;
    this.#onDrop = options.onDrop;
    const counting: SpanExporter = {
      export: (spans, done) => {
        this.#queued = Math.max(0, this.#queued - spans.length);
        options.exporter.export(spans, (result: ExportResult) => {
          if (result.code !== ExportResultCode.SUCCESS) this.#onDrop("export_failed", spans.length);
          done(result);
        });
      },
      shutdown: () => options.exporter.shutdown(),
      ...(options.exporter.forceFlush ? { forceFlush: () => options.exporter.forceFlush!() } : {}),
    };
    this.#inner = new BatchSpanProcessor(counting, {
      maxQueueSize: options.maxQueueSize,
      maxExportBatchSize: Math.min(options.maxExportBatchSize, options.maxQueueSize),
      scheduledDelayMillis: options.scheduledDelayMillis,
      exportTimeoutMillis: options.exportTimeoutMillis,
    });
  }

  /** Spans waiting for export right now. */
  get queued(): number {
    return this.#queued;
  }

  onStart(span: Span, parent: Context): void {
    this.#inner.onStart(span, parent);
  }

  onEnd(span: ReadableSpan): void {
    if (this.#queued >= this.#max) {
      this.#onDrop("queue_full", 1);
      return;
    }
    this.#queued += 1;
    this.#inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }
}
