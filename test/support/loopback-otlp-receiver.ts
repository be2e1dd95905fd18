/**
 * Test-only: an OTLP/HTTP trace receiver on loopback. It accepts `POST /v1/traces` in the
 * OTLP JSON encoding (what the OTLP/HTTP exporters send, and lib/observability/guarded-otlp-exporter.ts), decodes every
 * span it receives and keeps the raw bodies, so a test can look for bytes that must not be there.
 */
import { json, startLoopbackServer, type LoopbackServer } from "./loopback-server";

export type OtlpValue =
  | { stringValue: string }
  | { intValue: string | number }
  | { boolValue: boolean }
  | { doubleValue: number }
  | { arrayValue: { values?: OtlpValue[] } };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code?: number; message?: string };
  /** Attributes decoded to plain values. */
  attrs: Record<string, unknown>;
  service: unknown;
}

export interface LoopbackOtlpReceiver {
  url: string;
  server: LoopbackServer;
  spans: ReceivedSpan[];
  /** Every request body as received. */
  raw: string[];
  close(): Promise<void>;
}

export function decodeOtlpValue(value: OtlpValue | undefined): unknown {
  if (!value) return undefined;
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("boolValue" in value) return value.boolValue;
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) return (value.arrayValue.values ?? []).map(decodeOtlpValue);
  return undefined;
}

interface OtlpBody {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans?: Array<{
      spans?: Array<
        Omit<ReceivedSpan, "attrs" | "service"> & { attributes?: Array<{ key: string; value: OtlpValue }> }
      >;
    }>;
  }>;
}

export async function startLoopbackOtlpReceiver(): Promise<LoopbackOtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const raw: string[] = [];
  const server = await startLoopbackServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/traces") return json(res, { error: "no route" }, 404);
    raw.push(req.body);
    const body = JSON.parse(req.body) as OtlpBody;
    for (const resource of body.resourceSpans ?? []) {
      const service = resource.resource?.attributes?.find((a) => a.key === "service.name");
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          const attrs: Record<string, unknown> = {};
          for (const a of span.attributes ?? []) attrs[a.key] = decodeOtlpValue(a.value);
          const { attributes: _drop, ...rest } = span;
          spans.push({ ...rest, attrs, service: decodeOtlpValue(service?.value) });
        }
      }
    }
    json(res, {});
  });
  return { url: server.origin, server, spans, raw, close: () => server.close() };
}
