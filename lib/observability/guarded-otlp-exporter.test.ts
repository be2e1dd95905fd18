import { ExportResultCode, type ExportResult } from "@opentelemetry/core";
import { BasicTracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { collectorConfig, GuardedOtlpExporter, parseOtlpHeaders } from "./guarded-otlp-exporter";

/** Two finished spans, captured by a recording exporter. */
function spans(): ReadableSpan[] {
  const captured: ReadableSpan[] = [];
  const recorder: SpanExporter = {
    export: (batch, done) => {
      captured.push(...batch);
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => undefined,
  };
  const provider = new BasicTracerProvider({
    spanProcessors: [
      {
        onStart: () => undefined,
        onEnd: (span) => recorder.export([span], () => undefined),
        forceFlush: async () => undefined,
        shutdown: async () => undefined,
      },
    ],
  });
  const tracer = provider.getTracer("test");
  tracer.startSpan("invoke_agent a").end();
  tracer.startSpan("execute_tool t").end();
  return captured;
}

const exportOnce = (exporter: GuardedOtlpExporter, batch: ReadableSpan[]) =>
  new Promise<ExportResult>((resolve) => exporter.export(batch, resolve));

describe("collectorConfig", () => {
  it("takes the traces endpoint as is, or the base endpoint plus /v1/traces, with the spec's headers", () => {
    expect(collectorConfig({})).toBeUndefined();
    expect(collectorConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" })).toMatchObject({
      url: "http://127.0.0.1:4318/v1/traces",
      variable: "OTEL_EXPORTER_OTLP_ENDPOINT",
    });
    expect(
      collectorConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://a:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://c.example/otlp/traces",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20x,x-team=obs",
        OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
      }),
    ).toStrictEqual({
      url: "https://c.example/otlp/traces",
      variable: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
      headers: { authorization: "Bearer x", "x-team": "obs" },
      timeoutMs: 2500,
    });
    expect(parseOtlpHeaders("bad, =x,k=%E0%A4%A,ok=1")).toStrictEqual({ ok: "1" });
  });
});

describe("GuardedOtlpExporter", () => {
  const config = {
    url: "http://127.0.0.1:4318/v1/traces",
    variable: "OTEL_EXPORTER_OTLP_ENDPOINT",
    headers: { "x-k": "v" },
    timeoutMs: 1000,
  };

  it("posts the spans as OTLP/JSON with the configured headers, redirects not followed", async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const exporter = new GuardedOtlpExporter(config, async (url, init = {}) => {
      sent.push({ url: String(url), init });
      return new Response("{}", { status: 200 });
    });
    expect(await exportOnce(exporter, spans())).toMatchObject({ code: ExportResultCode.SUCCESS });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(config.url);
    expect(sent[0]!.init).toMatchObject({
      method: "POST",
      redirect: "manual",
      headers: { "x-k": "v", "content-type": "application/json" },
    });
    const body = JSON.parse(String(sent[0]!.init.body)) as {
      resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[];
    };
    expect(body.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name)).toStrictEqual([
      "invoke_agent a",
      "execute_tool t",
    ]);
  });

  it("fails the export (never throws) on an error status or a failed send", async () => {
    const refusing = new GuardedOtlpExporter(config, async () => new Response("no", { status: 503 }));
    const failed = await exportOnce(refusing, spans());
    expect(failed.code).toBe(ExportResultCode.FAILED);
    expect(failed.error?.message).toBe("the collector answered HTTP 503");
    const broken = new GuardedOtlpExporter(config, async () => {
      throw new Error("connection refused");
    });
    expect((await exportOnce(broken, spans())).error?.message).toBe("connection refused");
  });

  it("sends through the egress guard: a collector on a metadata address is refused when configured", () => {
    expect(() => new GuardedOtlpExporter({ ...config, url: "http://169.254.169.254/v1/traces" })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT: bad entry "169.254.169.254": this address is always blocked and cannot be allowlisted',
    );
  });
});
