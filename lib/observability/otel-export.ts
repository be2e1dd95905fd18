/**
 * The process's OpenTelemetry trace export: off unless OTEL_EXPORTER_OTLP_ENDPOINT (or the
 * traces-only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; then one tracer provider with an
 * OTLP/HTTP exporter that sends through the egress guard (guarded-otlp-exporter.ts; it reads
 * the standard OTEL_EXPORTER_OTLP_* headers and timeout) behind a bounded batch processor. The provider is deliberately not
 * registered globally: Next.js would otherwise send a span for every HTTP request into it,
 * and the export is one trace per turn. It lives on globalThis so every bundle of the server
 * shares it.
 */
import type { Tracer } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { rawEnvSnapshot, type Env } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { APP_VERSION } from "@/lib/version";
import { BoundedSpanProcessor } from "./bounded-span-processor";
import { collectorConfig, GuardedOtlpExporter } from "./guarded-otlp-exporter";
import { onShutdown } from "@/lib/shutdown-tasks";
import { insikaMetrics } from "./insika-metrics";
import { TurnIdGenerator } from "./turn-trace-ids";

export interface OtelExport {
  tracer: Tracer;
  ids: TurnIdGenerator;
  processor: BoundedSpanProcessor;
  provider: NodeTracerProvider;
}

const SLOT = Symbol.for("insika.otelExport");
let refusedLogged = false;
const globalSlot = globalThis as typeof globalThis & { [SLOT]?: OtelExport };

/** Whether the environment asks for trace export. */
export function otelEnabled(env: Env): boolean {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

/** The export, created on first use; undefined when the environment does not ask for one. */
export function getOtelExport(env: Env): OtelExport | undefined {
  if (!otelEnabled(env)) return undefined;
  const held = globalSlot[SLOT];
  if (held) return held;
  const collector = collectorConfig({
    ...rawEnvSnapshot(),
    OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
  });
  if (!collector) return undefined;
  let exporter: GuardedOtlpExporter;
  try {
    exporter = new GuardedOtlpExporter(collector);
  } catch (error) {
    // A collector the egress guard can never reach (a metadata address, a bad URL): no export, said once.
    if (!refusedLogged) log.error("OpenTelemetry export is off: its endpoint is refused", describeError(error));
    refusedLogged = true;
    return undefined;
  }
  const ids = new TurnIdGenerator();
  const processor = new BoundedSpanProcessor({
    exporter,
    maxQueueSize: env.OTEL_BSP_MAX_QUEUE_SIZE,
    maxExportBatchSize: env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
    scheduledDelayMillis: env.OTEL_BSP_SCHEDULE_DELAY,
    exportTimeoutMillis: env.OTEL_BSP_EXPORT_TIMEOUT,
    onDrop: (reason, n) => insikaMetrics().spansDropped.inc({ reason }, n),
  });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME, "service.version": APP_VERSION }),
    idGenerator: ids,
    spanProcessors: [processor],
  });
  // Unref'd timers in the SDK never keep the process alive; a clean exit flushes what is queued,
  // and so does the server's stop on SIGTERM / SIGINT (scripts/serve.mjs), which exits at once.
  process.once("beforeExit", () => void provider.shutdown().catch(() => undefined));
  onShutdown("OpenTelemetry span export", () => provider.shutdown());
  globalSlot[SLOT] = { tracer: provider.getTracer("insika", APP_VERSION), ids, processor, provider };
  return globalSlot[SLOT];
}
