import { describe, expect, it } from "vitest";
import { ExportResultCode } from "@opentelemetry/core";
import { NodeTracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-node";
import { BoundedSpanProcessor, type DropReason } from "./bounded-span-processor";

function exporterThat(code: ExportResultCode, seen: ReadableSpan[]): SpanExporter {
  return {
    export: (spans, done) => {
      seen.push(...spans);
      done({ code });
    },
    shutdown: async () => undefined,
  };
}

function run(code: ExportResultCode, max: number, spans: number) {
  const seen: ReadableSpan[] = [];
  const drops: Array<[DropReason, number]> = [];
  const processor = new BoundedSpanProcessor({
    exporter: exporterThat(code, seen),
    maxQueueSize: max,
    maxExportBatchSize: 100,
    scheduledDelayMillis: 60_000,
    exportTimeoutMillis: 1000,
    onDrop: (reason, n) => drops.push([reason, n]),
  });
  const tracer = new NodeTracerProvider({ spanProcessors: [processor] }).getTracer("t");
  for (let i = 0; i < spans; i += 1) tracer.startSpan(`s${i}`).end();
  return { processor, seen, drops };
}

describe("BoundedSpanProcessor", () => {
  it("drops and counts spans beyond its queue without blocking", async () => {
    // 20 spans in one synchronous burst: the exporter cannot drain the queue in between.
    const { processor, seen, drops } = run(ExportResultCode.SUCCESS, 3, 20);
    expect(processor.queued).toBeLessThanOrEqual(3);
    const dropped = drops.reduce((sum, [reason, n]) => (expect(reason).toBe("queue_full"), sum + n), 0);
    expect(dropped).toBeGreaterThanOrEqual(14);
    await processor.forceFlush();
    expect(seen.length + dropped).toBe(20);
    expect(processor.queued).toBe(0);
  });

  it("counts the spans of a failed export", async () => {
    const { processor, drops } = run(ExportResultCode.FAILED, 10, 2);
    await processor.forceFlush().catch(() => undefined);
    expect(drops).toEqual([["export_failed", 2]]);
  });
});
