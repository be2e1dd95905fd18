import { describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { SpanStatusCode } from "@opentelemetry/api";
import { redactText } from "@/lib/secrets/redact";
import { UNKNOWN_TOOL_LABEL } from "./tool-label";
import { MAX_SPAN_TEXT_CHARS, TurnSpans } from "./turn-spans";
import { TurnIdGenerator, traceIdOfTurn } from "./turn-trace-ids";

const SECRET = "sk-live-abcdef123456";

function setup(captureContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const ids = new TurnIdGenerator();
  const provider = new NodeTracerProvider({ idGenerator: ids, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let clock = 1_000;
  const spans = new TurnSpans({
    tracer: provider.getTracer("test"),
    ids,
    turnId: "turn_1",
    sessionId: "ses_1",
    agent: { id: "support", name: "Support", provider: "openai", model: "gpt-x" },
    captureContent,
    redact: (text) => redactText(text, [SECRET]),
    isKnownTool: (name) => !name.startsWith("made_up"),
    now: () => (clock += 10),
  });
  return { exporter, spans };
}

function playTurn(spans: TurnSpans) {
  spans.event({ type: "turn_started", turn_id: "turn_1" });
  spans.modelStep({ startedAt: 1_000, endedAt: 1_005, usage: { inputTokens: 12, outputTokens: 3 }, toolCalls: 2 });
  spans.event({ type: "tool_call", call_id: "c1", tool: "lookup", arguments: { q: "x" } });
  spans.event({
    type: "tool_result",
    call_id: "c1",
    tool: "lookup",
    ok: true,
    result: "{}",
    duration_ms: 4,
    queued_ms: 0,
    record: {
      kind: "data",
      status: 200,
      arguments: { q: "x" },
      result: `{"token":"${SECRET}"}`,
      egress: { verdict: "allowed", rule: "public", hint: null },
    },
  });
  spans.event({
    type: "tool_result",
    call_id: "c2",
    tool: "fetch_page",
    ok: false,
    error: "destination blocked: 10.0.0.1 is a private address",
    duration_ms: 1,
    queued_ms: 2,
    record: { kind: "data", status: null, egress: { verdict: "blocked", rule: "private-address", hint: "x" } },
  });
  spans.modelStep({ startedAt: 1_050, endedAt: 1_060, usage: { inputTokens: 20, outputTokens: 5 }, toolCalls: 0 });
  spans.event({ type: "turn_completed", content: "done", usage: { inputTokens: 32, outputTokens: 8 } });
}

describe("TurnSpans", () => {
  it("builds invoke_agent with chat and execute_tool children in the turn's trace", () => {
    const { exporter, spans } = setup(false);
    playTurn(spans);
    const out = exporter.getFinishedSpans();
    expect(out.map((s) => s.name).sort()).toEqual([
      "chat gpt-x",
      "chat gpt-x",
      "execute_tool fetch_page",
      "execute_tool lookup",
      "invoke_agent Support",
    ]);
    const root = out.find((s) => s.name.startsWith("invoke_agent"))!;
    expect(root.spanContext().traceId).toBe(traceIdOfTurn("turn_1"));
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": "support",
      "gen_ai.conversation.id": "ses_1",
      "gen_ai.usage.input_tokens": 32,
      "insika.turn.status": "completed",
    });
    for (const child of out.filter((s) => s !== root)) {
      expect(child.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
      expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
    }
    const chat = out.filter((s) => s.name.startsWith("chat"));
    expect(chat[0]!.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.response.finish_reasons": ["tool_calls"],
    });
    expect(chat[1]!.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);
    const lookup = out.find((s) => s.name === "execute_tool lookup")!;
    expect(lookup.attributes).toMatchObject({
      "gen_ai.tool.name": "lookup",
      "gen_ai.tool.call.id": "c1",
      "insika.tool.kind": "data",
      "http.response.status_code": 200,
      "insika.egress.verdict": "allowed",
      "insika.tool.outcome": "ok",
    });
    expect(lookup.attributes["gen_ai.tool.call.result"]).toBeUndefined();
    const blocked = out.find((s) => s.name === "execute_tool fetch_page")!;
    expect(blocked.attributes).toMatchObject({
      "insika.egress.rule": "private-address",
      "insika.tool.outcome": "blocked",
    });
    expect(blocked.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("adds bodies only when asked, with secrets masked", () => {
    const { exporter, spans } = setup(true);
    playTurn(spans);
    const lookup = exporter.getFinishedSpans().find((s) => s.name === "execute_tool lookup")!;
    expect(lookup.attributes["gen_ai.tool.call.arguments"]).toBe('{"q":"x"}');
    expect(lookup.attributes["gen_ai.tool.call.result"]).toBe('{"token":"[secret]"}');
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes))).not.toContain(SECRET);
  });

  it("clips long bodies and error texts after masking them, so a span never holds a call's whole arguments", () => {
    const { exporter, spans } = setup(true);
    const huge = "x".repeat(1_000_000);
    // The secret straddles the clip point: masked first, it cannot leave a piece of itself behind.
    const straddling = `${"y".repeat(MAX_SPAN_TEXT_CHARS - 20)}${SECRET}${"z".repeat(100)}`;
    spans.event({ type: "turn_started", turn_id: "turn_1" });
    spans.event({
      type: "tool_result",
      call_id: "c1",
      tool: "lookup",
      ok: false,
      error: straddling,
      duration_ms: 1,
      queued_ms: 0,
      record: { kind: "data", status: 500, arguments: { q: huge }, result: straddling },
    });
    spans.event({ type: "turn_completed", content: "" });
    const call = exporter.getFinishedSpans().find((s) => s.name === "execute_tool lookup")!;
    const args = call.attributes["gen_ai.tool.call.arguments"] as string;
    const result = call.attributes["gen_ai.tool.call.result"] as string;
    expect(args.length).toBe(MAX_SPAN_TEXT_CHARS);
    expect(args.startsWith('{"q":"xxx')).toBe(true);
    const masked = `${"y".repeat(MAX_SPAN_TEXT_CHARS - 20)}[secret]${"z".repeat(12)}`;
    expect(result).toBe(masked);
    expect(call.status.message).toBe(masked);
    expect(JSON.stringify([call.attributes, call.status])).not.toContain(SECRET.slice(0, 8));
  });

  it("marks a failed turn and ignores events after the end", () => {
    const { exporter, spans } = setup(false);
    spans.event({ type: "turn_started", turn_id: "turn_1" });
    spans.event({ type: "turn_failed", error: `boom ${SECRET}`, code: "model_error", fault: "model" });
    spans.event({ type: "warning", message: "late" });
    spans.modelStep({ startedAt: 1, endedAt: 2, toolCalls: 0 });
    const [root] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(root!.status).toEqual({ code: SpanStatusCode.ERROR, message: "boom [secret]" });
    expect(root!.attributes["insika.turn.failure_code"]).toBe("model_error");
  });

  it("exports a failed call's error text only with content capture: it may hold arguments or the tool's own answer", () => {
    const failedCalls = (spans: TurnSpans) => {
      spans.event({ type: "turn_started", turn_id: "turn_1" });
      // An MCP tool's isError answer: its text content is the call's error.
      spans.event({
        type: "tool_result",
        call_id: "c1",
        tool: "crm_lookup",
        ok: false,
        error: "customer 4711: Jane Doe, jane@example.com, card ending 4242",
        duration_ms: 3,
        queued_ms: 0,
        record: { kind: "mcp", status: 200 },
      });
      // An argument error quotes (part of) the value the model sent.
      spans.event({
        type: "tool_result",
        call_id: "c2",
        tool: "crm_lookup",
        ok: false,
        error: 'id: expected an integer, got the string "jane@example.com"',
        duration_ms: 0,
        queued_ms: 0,
        record: { kind: "data", status: null },
      });
      spans.event({ type: "turn_completed", content: "" });
    };
    const off = setup(false);
    failedCalls(off.spans);
    const quiet = off.exporter.getFinishedSpans().filter((s) => s.name.startsWith("execute_tool"));
    expect(quiet).toHaveLength(2);
    for (const span of quiet) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes["error.type"]).toBe("error");
      expect(JSON.stringify([span.status, span.attributes, span.events])).not.toContain("jane@example.com");
    }
    const on = setup(true);
    failedCalls(on.spans);
    const told = on.exporter.getFinishedSpans().filter((s) => s.name.startsWith("execute_tool"));
    expect(told.map((s) => s.status.message)).toEqual([
      "customer 4711: Jane Doe, jane@example.com, card ending 4242",
      'id: expected an integer, got the string "jane@example.com"',
    ]);
  });

  it("names a call of a made-up tool (unknown tool): the span name stays low-cardinality and small", () => {
    for (const capture of [false, true]) {
      const { exporter, spans } = setup(capture);
      spans.event({ type: "turn_started", turn_id: "turn_1" });
      const tool = `made_up_${"x".repeat(10_000)}`;
      spans.event({
        type: "tool_result",
        call_id: "c1",
        tool,
        ok: false,
        error: `unknown tool: ${tool}`,
        duration_ms: 0,
        queued_ms: 0,
      });
      spans.event({ type: "turn_completed", content: "" });
      const span = exporter.getFinishedSpans().find((s) => s.name.startsWith("execute_tool"))!;
      expect(span.name).toBe(`execute_tool ${UNKNOWN_TOOL_LABEL}`);
      expect(span.attributes["gen_ai.tool.name"]).toBe(UNKNOWN_TOOL_LABEL);
      expect(span.attributes["gen_ai.tool.call.id"]).toBe("c1");
      // Without content capture the made-up name is nowhere in the span.
      if (!capture) expect(JSON.stringify([span.name, span.attributes, span.status])).not.toContain("made_up");
    }
  });
});
