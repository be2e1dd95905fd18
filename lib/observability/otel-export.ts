/**
 * The process's OpenTelemetry trace export: off unless OTEL_EXPORTER_OTLP_ENDPOINT (or the
 * traces-only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; then one tracer provider with the
 * OTLP/HTTP exporter (which reads the standard OTEL_EXPORTER_OTLP_* variables itself: URL,
 * headers, timeout) behind a bounded batch processor. The provider is deliberately not
 * registered globally: Next.js would otherwise send a span for every HTTP request into it,
 * and the export is one trace per turn. It lives on globalThis so every bundle of the server
 * shares it.
 */
import { trace, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import type { Env } from "@/lib/env";
import { APP_VERSION } from "@/lib/version";
import { BoundedSpanProcessor, type DropReason } from "./bounded-span-processor";
import { TurnIdGenerator } from "./turn-trace-ids";

export interface OtelExport {
  tracer: Tracer;
  ids: TurnIdGenerator;
  processor: BoundedSpanProcessor;
  provider: NodeTracerProvider;
}

type DropListener = (reason: DropReason, n: number) => void;

const SLOT = Symbol.for("insika.otelExport");
type Slot = { export: OtelExport | null; onDrop: DropListener[] };
const globalSlot = globalThis as typeof globalThis & { [SLOT]?: Slot };

function slot(): Slot {
  globalSlot[SLOT] ??= { export: null, onDrop: [] };
  return globalSlot[SLOT];
}

/** Whether the environment asks for trace export. */
export function otelEnabled(env: Env): boolean {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

/** Subscribes to span drops (the metrics count them); returns the remover. */
export function onSpansDropped(listener: DropListener): () => void {
  const listeners = slot().onDrop;
  listeners.push(listener);
  return () => listeners.splice(listeners.indexOf(listener) >>> 0, 1);
}

/** The export, created on first use; undefined when the environment does not ask for one. */
export function getOtelExport(env: Env): OtelExport | undefined {
  if (!otelEnabled(env)) return undefined;
  const held = slot();
  if (held.export) return held.export;
  const ids = new TurnIdGenerator();
  const processor = new BoundedSpanProcessor({
    exporter: new OTLPTraceExporter(),
    maxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE,
    maxExportBatchSize: env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY,
    exportTimeoutMillis: env.OTEL_BSP_EXPORT_TIMEOUT,
    onDrop: (reason, n) => {
      for (const listener of held.onDrop) listener(reason, n);
    },
  });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME, "service.version": APP_VERSION }),
    idGenerator: ids,
    spanProcessors: [processor],
  });
  // Unref'd timers in the SDK never keep the process alive; a clean exit flushes what is queued.
  process.once("beforeExit", () => void provider.shutdown().catch(() => undefined));
  held.export = { tracer: provider.getTracer("insika", APP_VERSION), ids, processor, provider };
  return held.export;
}

/** A tracer that records nothing (export off): the span builder then costs next to nothing. */
export const NOOP_TRACER: Tracer = trace.getTracer("insika-noop");
