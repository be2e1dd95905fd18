/**
 * Observability against the real server (issue 20): a turn's OpenTelemetry trace arrives at
 * a loopback OTLP receiver (decoded: spans, parents, GenAI attributes, and not one byte of the
 * secret the backend echoes); the same turn with the collector unreachable completes as
 * usual and the lost spans are counted; GET /metrics is parsed with a Prometheus text-format
 * parser and its counters move with the calls.
 */
import fs from "node:fs";
import path from "node:path";
import parsePrometheusTextFormat, { type ParsedFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import {
  startLoopbackOtlpReceiver,
  type LoopbackOtlpReceiver,
  type ReceivedSpan,
} from "../support/loopback-otlp-receiver";
import { freePort, startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";

const SECRET = "sk-live-otel-5b2e9d0c7a1f3e84";
const FORMS = [SECRET, Buffer.from(SECRET).toString("base64"), encodeURIComponent(SECRET)];

function scripts(): string {
  const dir = tempDir("insika-otel-scripts-");
  fs.writeFileSync(
    path.join(dir, "watcher.json"),
    JSON.stringify([
      [
        { type: "text", text: "Looking." },
        { type: "tool-call", name: "whoami", args: { who: "me" } },
        { type: "tool-call", name: "fail_echo", args: {} },
        { type: "tool-call", name: "intranet", args: {} },
        { type: "usage", usage: { inputTokens: 11, outputTokens: 7 } },
      ],
      [
        { type: "text", text: "done" },
        { type: "usage", usage: { inputTokens: 30, outputTokens: 2 } },
      ],
    ]),
  );
  fs.writeFileSync(
    path.join(dir, "gated.json"),
    JSON.stringify([[{ type: "tool-call", name: "whoami", args: {} }], [{ type: "text", text: "not allowed, fine" }]]),
  );
  return dir;
}

/** The server settings every test here runs turns with: the scripted model, the secret, egress to the backend only. */
function turnEnv(backend: LoopbackBackend): Record<string, string> {
  return {
    INSIKA_SCRIPTED_DIR: scripts(),
    INSIKA_SECRET_API_TOKEN: SECRET,
    INSIKA_EGRESS_ALLOW_HTTP: "1",
    INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
  };
}

async function setUp(server: TestServer, backend: LoopbackBackend): Promise<void> {
  const manifest = await server.api("POST", "/v1/tools/manifest", {
    defaults: {
      secret_headers: ["Authorization"],
      request: { headers: { Authorization: "Bearer {{secret.api_token}}" } },
    },
    tools: [
      {
        name: "whoami",
        description: "echoes the credential",
        request: { method: "GET", url: `${backend.url}/whoami` },
      },
      { name: "fail_echo", description: "fails, quoting it", request: { method: "GET", url: `${backend.url}/fail` } },
      // Not in INSIKA_EGRESS_HOSTS: the egress guard refuses it.
      { name: "intranet", description: "a host not allowed", request: { method: "GET", url: "http://10.0.0.1/x" } },
    ],
  });
  expect(manifest.body.errors).toEqual([]);
  const agent = await server.api("PUT", "/v1/agents/watcher", {
    name: "Watcher",
    model: { provider: "scripted", model: "watcher" },
    limits: { tool_concurrency: 1 },
  });
  expect(agent.status).toBe(201);
}

async function runTurn(server: TestServer): Promise<{ sessionId: string; turnId: string; status: string; ms: number }> {
  const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "watcher" })).body.id as string;
  const started = Date.now();
  const turn = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "who am I?" });
  return { sessionId, turnId: turn.body.turn_id, status: turn.body.status, ms: Date.now() - started };
}

function backendThatEchoes(backend: LoopbackBackend): void {
  backend.route("GET", "/whoami", (req) => ({ body: { auth: req.headers.authorization } }));
  backend.route("GET", "/fail", (req) => ({ status: 500, body: { error: `bad ${req.headers.authorization}` } }));
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One scrape, parsed. The parser merges the series of a labelled histogram into one (it
 * keys samples on labels without `le`, then drops them), so each histogram's `_count`
 * series is also parsed on its own, as the untyped family `<name>_count` it then reads as.
 */
async function scrape(server: TestServer, key = server.token): Promise<ParsedFamily[]> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  const text = await res.text();
  const families = parsePrometheusTextFormat(text);
  const histograms = families.filter((f) => f.type === "HISTOGRAM").map((f) => `${f.name}_count`);
  const counts = text
    .split("\n")
    .filter((line) => histograms.some((h) => line.startsWith(`${h} `) || line.startsWith(`${h}{`)));
  return [...families, ...parsePrometheusTextFormat(counts.join("\n") + "\n")];
}

/** The value of one sample (a counter or gauge) whose labels include `labels`; 0 when absent. */
function sample(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const hit = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return hit ? Number(hit.value ?? hit.count ?? 0) : 0;
}

describe("OpenTelemetry export to a loopback collector", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let collector: LoopbackOtlpReceiver;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    backendThatEchoes(backend);
    collector = await startLoopbackOtlpReceiver();
    server = await startServer({
      env: {
        ...turnEnv(backend),
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_BSP_SCHEDULE_DELAY: "100",
        OTEL_SERVICE_NAME: "insika-test",
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
      },
    });
    await setUp(server, backend);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
    await collector?.close();
  });

  it("sends one trace per turn: invoke_agent over chat and execute_tool spans, with the GenAI attributes", async () => {
    const turn = await runTurn(server);
    expect(turn.status).toBe("completed");
    const spans = await until("the turn's five spans", () => {
      const root = collector.spans.find((s) => s.attrs["insika.turn.id"] === turn.turnId);
      const mine = root && collector.spans.filter((s) => s.traceId === root.traceId);
      return mine && mine.length >= 6 ? mine : undefined;
    });
    const root = spans.find((s) => s.name === "invoke_agent Watcher")!;
    expect(root.parentSpanId ?? "").toBe("");
    expect(root.service).toBe("insika-test");
    expect(root.attrs).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": "watcher",
      "gen_ai.agent.name": "Watcher",
      "gen_ai.conversation.id": turn.sessionId,
      "gen_ai.provider.name": "scripted",
      "gen_ai.request.model": "watcher",
      "insika.turn.status": "completed",
    });
    const children = spans.filter((s) => s !== root);
    for (const child of children) expect(child.parentSpanId).toBe(root.spanId);
    const chats = children.filter((s) => s.name === "chat watcher").sort(byStart);
    expect(chats).toHaveLength(2);
    expect(chats[0]!.attrs).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.usage.input_tokens": 11,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.response.finish_reasons": ["tool_calls"],
    });
    expect(chats[1]!.attrs["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    const tool = (name: string) => children.find((s) => s.name === `execute_tool ${name}`)!;
    expect(tool("whoami").attrs).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "whoami",
      "insika.tool.kind": "data",
      "http.response.status_code": 200,
      "insika.egress.verdict": "allowed",
      "insika.tool.outcome": "ok",
      "gen_ai.tool.call.arguments": '{"who":"me"}',
    });
    expect(tool("whoami").attrs["gen_ai.tool.call.id"]).toEqual(expect.any(String));
    expect(String(tool("whoami").attrs["gen_ai.tool.call.result"])).toContain("[secret]");
    expect(tool("fail_echo").attrs).toMatchObject({ "http.response.status_code": 500, "insika.tool.outcome": "error" });
    expect(tool("fail_echo").status?.code).toBe(2);
    expect(tool("intranet").attrs).toMatchObject({
      "insika.egress.verdict": "blocked",
      "insika.egress.rule": "not-allowlisted",
      "insika.tool.outcome": "blocked",
    });
    // Not one byte of the secret, in any form, in anything the collector received.
    for (const body of collector.raw) for (const form of FORMS) expect(body).not.toContain(form);
    // The backend did receive it: the calls were made with the secret.
    expect(backend.requests.some((r) => r.headers.authorization === `Bearer ${SECRET}`)).toBe(true);
  });

  it("keeps a turn that waits for an approval and resumes in one trace: a span per run, the refused call rejected", async () => {
    const put = await server.api("PUT", "/v1/agents/gated", {
      name: "Gated",
      model: { provider: "scripted", model: "gated" },
      approvals: ["whoami"],
    });
    expect(put.status).toBe(201);
    const before = await scrape(server);
    const sessionId = (await server.api("POST", "/v1/sessions", { agent_id: "gated" })).body.id as string;
    const turn = await server.api("POST", `/v1/sessions/${sessionId}/turns`, { message: "who?" });
    expect(turn.body.status).toBe("waiting");
    const approvals = (await server.api("GET", "/v1/approvals?status=pending")).body.approvals as Array<{
      id: string;
      session_id: string;
    }>;
    const approval = approvals.find((a) => a.session_id === sessionId)!;
    expect((await scrape(server)).find((f) => f.name === "insika_approvals_pending")?.metrics[0]?.value).toBe("1");
    expect((await server.api("POST", `/v1/approvals/${approval.id}`, { decision: "rejected" })).status).toBe(200);
    const runs = await until("both runs of the turn", () => {
      const mine = collector.spans.filter((s) => s.attrs["insika.turn.id"] === turn.body.turn_id);
      return mine.length >= 2 && mine.some((s) => s.attrs["insika.turn.status"] === "completed") ? mine : undefined;
    });
    expect(new Set(runs.map((s) => s.traceId)).size).toBe(1);
    expect(runs.map((s) => s.attrs["insika.turn.status"]).sort()).toEqual(["completed", "waiting"]);
    const rejected = await until("the rejected call's span", () =>
      collector.spans.find(
        (s) => s.traceId === runs[0]!.traceId && s.name === "execute_tool whoami" && s.parentSpanId !== undefined,
      ),
    );
    expect(rejected.attrs["insika.tool.outcome"]).toBe("rejected");
    const after = await scrape(server);
    const moved = (labels: Record<string, string>) =>
      sample(after, "insika_tool_calls_total", labels) - sample(before, "insika_tool_calls_total", labels);
    expect(moved({ tool: "whoami", kind: "unknown", outcome: "rejected" })).toBe(1);
    expect(sample(after, "insika_turns_total", { agent: "gated", outcome: "waiting" })).toBe(1);
    expect(sample(after, "insika_turns_total", { agent: "gated", outcome: "completed" })).toBe(1);
  });

  it("serves /metrics to a traces:read key only; counters move as calls happen", async () => {
    const bare = await fetch(`${server.url}/metrics`);
    expect(bare.status).toBe(401);
    expect((await bare.json()).error.code).toBe("unauthorized");
    const runner = (await server.api("POST", "/v1/keys", { name: "runner", scopes: ["turns:run"] })).body.key;
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${runner}` } })).status).toBe(403);
    const pinned = (await server.api("POST", "/v1/keys", { name: "acme", scopes: ["traces:read"], tenant: "acme" }))
      .body.key;
    const refused = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${pinned}` } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toContain("pinned to tenant 'acme'");
    const reader = (await server.api("POST", "/v1/keys", { name: "prometheus", scopes: ["traces:read"] })).body.key;

    const before = await scrape(server, reader);
    expect((await runTurn(server)).status).toBe("completed");
    const after = await scrape(server, reader);
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved("insika_tool_calls_total", { tool: "whoami", kind: "data", outcome: "ok" })).toBe(1);
    expect(moved("insika_tool_calls_total", { tool: "fail_echo", kind: "data", outcome: "error" })).toBe(1);
    expect(moved("insika_tool_calls_total", { tool: "intranet", kind: "data", outcome: "blocked" })).toBe(1);
    expect(moved("insika_egress_blocks_total", { rule: "not-allowlisted" })).toBe(1);
    expect(moved("insika_turns_total", { agent: "watcher", outcome: "completed" })).toBe(1);
    expect(moved("insika_tool_call_duration_seconds_count", { tool: "whoami" })).toBe(1);
    expect(moved("insika_turn_duration_seconds_count", { agent: "watcher" })).toBe(1);
    expect(moved("insika_tool_call_queue_wait_seconds_count", {})).toBe(3);
    expect(moved("insika_group_commit_flush_seconds_count", {})).toBeGreaterThan(0);
    const names = after.map((f) => f.name);
    for (const name of [
      "insika_tool_call_queue_wait_seconds",
      "insika_approvals_pending",
      "nodejs_eventloop_lag_seconds",
      "insika_otel_spans_dropped_total",
    ])
      expect(names).toContain(name);
    expect(sample(after, "insika_approvals_pending")).toBe(0);
    expect(after.find((f) => f.name === "insika_turn_duration_seconds")?.type).toBe("HISTOGRAM");
  });
});

describe("OpenTelemetry spans still queued when the server is told to stop", () => {
  it("are exported before the process exits on SIGTERM", async () => {
    const backend = await startLoopbackBackend();
    backendThatEchoes(backend);
    const collector = await startLoopbackOtlpReceiver();
    const server = await startServer({
      env: {
        ...turnEnv(backend),
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        // Nothing is exported on the schedule while the test runs: only the shutdown sends.
        OTEL_BSP_SCHEDULE_DELAY: "600000",
      },
    });
    try {
      await setUp(server, backend);
      const turn = await runTurn(server);
      expect(turn.status).toBe("completed");
      await new Promise((r) => setTimeout(r, 500));
      expect(collector.spans.filter((s) => s.attrs["insika.turn.id"] === turn.turnId)).toHaveLength(0);
      await server.stop("SIGTERM");
      const root = collector.spans.find((s) => s.attrs["insika.turn.id"] === turn.turnId);
      expect(root?.name).toBe("invoke_agent Watcher");
      expect(collector.spans.filter((s) => s.traceId === root?.traceId).length).toBeGreaterThanOrEqual(6);
    } finally {
      await server.stop();
      await backend.close();
      await collector.close();
    }
  });
});

describe("OpenTelemetry export to a collector that is not there", () => {
  let server: TestServer;
  let backend: LoopbackBackend;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    backendThatEchoes(backend);
    // A port nothing listens on: every export is refused.
    const closed = await freePort();
    server = await startServer({
      env: {
        ...turnEnv(backend),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`,
        OTEL_EXPORTER_OTLP_TIMEOUT: "500",
        OTEL_BSP_SCHEDULE_DELAY: "50",
        OTEL_BSP_EXPORT_TIMEOUT: "1000",
      },
    });
    await setUp(server, backend);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  it("completes the turn as usual and counts the spans it could not deliver", async () => {
    const first = await runTurn(server);
    expect(first.status).toBe("completed");
    const second = await runTurn(server);
    expect(second.status).toBe("completed");
    expect(second.ms).toBeLessThan(5_000);
    const trace = await server.api("GET", `/v1/sessions/${second.sessionId}/trace`);
    expect(trace.body.turns[0].calls).toHaveLength(3);
    await until("the failed exports to be counted", async () => {
      const families = await scrape(server);
      return sample(families, "insika_otel_spans_dropped_total", { reason: "export_failed" }) >= 6 ? true : undefined;
    });
  });
});

function byStart(a: ReceivedSpan, b: ReceivedSpan): number {
  return Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano));
}
