/**
 * The OTLP/HTTP span exporter, sent through the egress guard like every other outbound
 * request: spans serialized by the official OTLP transformer (JSON, as the SDK's OTLP/HTTP
 * exporter sends them) and POSTed with guardedFetch to the collector. The collector is the
 * operator's (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else OTEL_EXPORTER_OTLP_ENDPOINT +
 * /v1/traces): its host is reachable even when private, loopback or plain http, and nothing
 * else is; the guard still checks the address it connects to (DNS pinned, metadata refused).
 * Redirects are not followed. A failure is a FAILED export, which the bounded processor
 * counts as dropped spans: never an error in a turn.
 */
import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { guardedFetch, parseConfiguredEndpointPosture, type FetchLike } from "@/lib/egress";

export interface CollectorConfig {
  /** The traces URL. */
  url: string;
  /** The variable it came from (named in refusals). */
  variable: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** Where spans go, from the standard variables (the traces endpoint wins; the base one gets /v1/traces). */
export function collectorConfig(env: Record<string, string | undefined>): CollectorConfig | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!traces && !base) return undefined;
  const url = traces || `${base!.replace(/\/+$/, "")}/v1/traces`;
  const variable = traces ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT";
  const headers = parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ?? env.OTEL_EXPORTER_OTLP_HEADERS);
  const timeout = Number(env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT ?? env.OTEL_EXPORTER_OTLP_TIMEOUT ?? 10_000);
  return { url, variable, headers, timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000 };
}

/** `key=value,key2=value2` (values URL-encoded), as the OTLP exporter specification writes headers. */
export function parseOtlpHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0 || pair.slice(0, at).trim() === "") continue;
    try {
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // a malformed percent-encoding: that pair is left out
    }
  }
  return headers;
}

export class GuardedOtlpExporter implements SpanExporter {
  readonly #config: CollectorConfig;
  readonly #send: FetchLike;
  readonly #pending = new Set<Promise<void>>();
  #stopped = false;

  constructor(config: CollectorConfig, send?: FetchLike) {
    this.#config = config;
    this.#send = send ?? guardedFetch(parseConfiguredEndpointPosture(config.url, config.variable));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.#stopped) return resultCallback({ code: ExportResultCode.FAILED, error: new Error("exporter shut down") });
    const sent = this.#post(spans).then(resultCallback);
    this.#pending.add(sent);
    void sent.finally(() => this.#pending.delete(sent));
  }

  async #post(spans: ReadableSpan[]): Promise<ExportResult> {
    try {
      const body = JsonTraceSerializer.serializeRequest(spans);
      if (!body) throw new Error("the spans could not be serialized");
      const response = await this.#send(this.#config.url, {
        method: "POST",
        headers: { ...this.#config.headers, "content-type": "application/json" },
        body: new TextDecoder().decode(body),
        redirect: "manual",
        signal: AbortSignal.timeout(this.#config.timeoutMs),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status >= 300)
        throw new Error(`the collector answered HTTP ${response.status}`);
      return { code: ExportResultCode.SUCCESS };
    } catch (error) {
      return { code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async shutdown(): Promise<void> {
    this.#stopped = true;
    await this.forceFlush();
  }
}
