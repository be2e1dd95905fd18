/**
 * The span builder: one turn's engine events (and its model steps, told by traced-model.ts)
 * become spans in the OpenTelemetry GenAI conventions — an `invoke_agent` span for the run,
 * a `chat` span per model step and an `execute_tool` span per call, both children of it.
 * Attributes come from what the Studio trace shows (the event and its call record, where
 * secrets are already masked), and every string is redacted again with the values of the
 * secrets the turn's calls used, should a record ever carry one, then clipped to
 * MAX_SPAN_TEXT_CHARS. Argument and result bodies,
 * and a failed call's error text, go in only with `captureContent`. Nothing here throws into the turn: observeTurn
 * (observe-turn.ts) swallows what might.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import type { EngineEvent, TokenUsage } from "@/lib/engine/ports";
import { clipText } from "@/lib/http-tools";
import { callOutcome, egressOf, isObject, kindOf } from "./call-outcome";
import { toolLabel } from "./tool-label";
import { traceIdOfTurn, type TurnIdGenerator } from "./turn-trace-ids";

export interface TurnSpansParams {
  tracer: Tracer;
  ids: TurnIdGenerator;
  turnId: string;
  sessionId: string;
  agent: { id: string; name: string; provider: string; model: string };
  captureContent: boolean;
  /** Masks secret values in a string (lib/secrets/redact.ts with the turn's secrets). */
  redact: (text: string) => string;
  /** Whether a name is a tool of the catalog or a system tool; a call of any other name is named UNKNOWN_TOOL_LABEL. */
  isKnownTool: (name: string) => boolean;
  now?: () => number;
}

/** What traced-model.ts reports of one model step. */
export interface ModelStepReport {
  startedAt: number;
  endedAt: number;
  usage?: TokenUsage;
  toolCalls: number;
  error?: string;
}

/** The longest string a span carries (attribute or status message), as long as the trace's clipped result. */
export const MAX_SPAN_TEXT_CHARS = 8 * 1024;

export class TurnSpans {
  readonly #p: TurnSpansParams;
  readonly #now: () => number;
  #root: Span | undefined;
  readonly #rejected = new Set<string>();
  readonly #usage: TokenUsage = {};
  #ended = false;

  constructor(params: TurnSpansParams) {
    this.#p = params;
    this.#now = params.now ?? Date.now;
  }

  /** The run's invoke_agent span, started on first need (its trace id is the turn's). */
  #rootSpan(): Span {
    if (this.#root) return this.#root;
    const { tracer, ids, turnId, sessionId, agent } = this.#p;
    const attributes: Attributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.provider.name": agent.provider,
      "gen_ai.system": agent.provider,
      "gen_ai.agent.id": agent.id,
      "gen_ai.agent.name": agent.name,
      "gen_ai.conversation.id": sessionId,
      "gen_ai.request.model": agent.model,
      "insika.turn.id": turnId,
    };
    this.#root = ids.withTraceId(traceIdOfTurn(turnId), () =>
      tracer.startSpan(`invoke_agent ${agent.name}`, {
        kind: SpanKind.INTERNAL,
        attributes: this.#clean(attributes),
        startTime: this.#now(),
        root: true,
      }),
    );
    return this.#root;
  }

  #childOptions(name: string, attributes: Attributes, startTime: number) {
    const parent = trace.setSpan(ROOT_CONTEXT, this.#rootSpan());
    return { name, options: { kind: SpanKind.INTERNAL, attributes: this.#clean(attributes), startTime }, parent };
  }

  /** A model step: its chat span, from its start to its end. */
  modelStep(step: ModelStepReport): void {
    if (this.#ended) return;
    const { agent } = this.#p;
    const attributes: Attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": agent.provider,
      "gen_ai.system": agent.provider,
      "gen_ai.request.model": agent.model,
      "gen_ai.response.model": agent.model,
      "gen_ai.response.finish_reasons": [step.error ? "error" : step.toolCalls > 0 ? "tool_calls" : "stop"],
    };
    if (step.usage?.inputTokens !== undefined) attributes["gen_ai.usage.input_tokens"] = step.usage.inputTokens;
    if (step.usage?.outputTokens !== undefined) attributes["gen_ai.usage.output_tokens"] = step.usage.outputTokens;
    const { name, options, parent } = this.#childOptions(`chat ${agent.model}`, attributes, step.startedAt);
    const span = this.#p.tracer.startSpan(name, { ...options, kind: SpanKind.CLIENT }, parent);
    if (step.error) this.#fail(span, "model_error", step.error);
    span.end(step.endedAt);
    this.#usage.inputTokens = (this.#usage.inputTokens ?? 0) + (step.usage?.inputTokens ?? 0);
    this.#usage.outputTokens = (this.#usage.outputTokens ?? 0) + (step.usage?.outputTokens ?? 0);
  }

  /** One engine event of the run. */
  event(event: EngineEvent): void {
    if (this.#ended) return;
    switch (event.type) {
      case "turn_started":
      case "turn_resumed":
        this.#rootSpan().setAttribute("insika.turn.resumed", event.type === "turn_resumed");
        return;
      case "approval_resolved":
        if (event.decision === "rejected") this.#rejected.add(event.call_id);
        return;
      case "tool_result":
        return this.#toolResult(event);
      case "turn_completed":
      case "turn_halted":
      case "turn_waiting":
      case "turn_failed":
        return this.#end(event);
      default:
        return;
    }
  }

  #toolResult(event: Extract<EngineEvent, { type: "tool_result" }>): void {
    const record = isObject(event.record) ? event.record : undefined;
    const outcome = callOutcome({
      ok: event.ok,
      halted: event.halted,
      record,
      rejected: this.#rejected.has(event.call_id),
    });
    const kind = kindOf(record);
    // A name the model made up is not a tool: neither a span name nor an attribute of its own.
    const tool = toolLabel(event.tool, this.#p.isKnownTool);
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": tool,
      "gen_ai.tool.call.id": event.call_id,
      "gen_ai.tool.type": kind === "data" || kind === "mcp" ? "extension" : "function",
      "insika.tool.kind": kind,
      "insika.tool.outcome": outcome,
      "insika.tool.halted": event.halted === true,
      "insika.tool.queued_ms": Math.round(event.queued_ms),
    };
    if (event.replayed) attributes["insika.tool.replayed"] = true;
    if (typeof record?.status === "number") attributes["http.response.status_code"] = record.status;
    const egress = egressOf(record);
    if (egress) {
      attributes["insika.egress.verdict"] = egress.verdict;
      attributes["insika.egress.rule"] = egress.rule;
    }
    if (typeof record?.halt_reason === "string") attributes["insika.tool.halt_reason"] = record.halt_reason;
    if (this.#p.captureContent) {
      // What the Studio trace shows: the record's arguments and its (masked, clipped) result.
      const args = record && "arguments" in record ? record.arguments : undefined;
      if (args !== undefined) attributes["gen_ai.tool.call.arguments"] = JSON.stringify(args);
      const result = typeof record?.result === "string" ? record.result : undefined;
      if (result !== undefined) attributes["gen_ai.tool.call.result"] = result;
    }
    const end = this.#now();
    const start = end - Math.max(0, event.duration_ms);
    const { name, options, parent } = this.#childOptions(`execute_tool ${tool}`, attributes, start);
    const span = this.#p.tracer.startSpan(name, options, parent);
    // A call's error text can be content (an MCP tool's isError answer, an argument value quoted
    // back by validation): like the bodies, it goes in only with captureContent.
    if (outcome !== "ok" && outcome !== "halted")
      this.#fail(span, outcome, this.#p.captureContent ? (event.error ?? outcome) : undefined);
    span.end(end);
  }

  #end(event: Extract<EngineEvent, { type: `turn_${string}` }>): void {
    const root = this.#rootSpan();
    const status = event.type.slice("turn_".length);
    root.setAttribute("insika.turn.status", status);
    const usage = "usage" in event && event.usage ? event.usage : this.#usage;
    if (usage.inputTokens !== undefined) root.setAttribute("gen_ai.usage.input_tokens", usage.inputTokens);
    if (usage.outputTokens !== undefined) root.setAttribute("gen_ai.usage.output_tokens", usage.outputTokens);
    if (event.type === "turn_failed") {
      root.setAttribute("insika.turn.failure_code", event.code);
      root.setAttribute("insika.turn.fault", event.fault);
      this.#fail(root, event.code, event.error);
    }
    this.#ended = true;
    root.end(this.#now());
  }

  /** Marks a span failed; the message (if any) is redacted and clipped like every other string. */
  #fail(span: Span, type: string, message: string | undefined): void {
    span.setAttribute("error.type", type);
    if (message === undefined) span.setStatus({ code: SpanStatusCode.ERROR });
    else span.setStatus({ code: SpanStatusCode.ERROR, message: this.#text(message) });
  }

  /**
   * A string as a span may carry it: redacted, then clipped to MAX_SPAN_TEXT_CHARS (in that
   * order, so a clip never leaves part of a secret). A span waits in the export queue with
   * its attributes: unclipped, a call's arguments (up to a model step's 64 MiB) or an MCP
   * tool's error answer would be held there whole, once per queued span.
   */
  #text(value: string): string {
    return clipText(this.#p.redact(value), MAX_SPAN_TEXT_CHARS).text;
  }

  /** Every string attribute redacted and clipped (and arrays of strings). */
  #clean(attributes: Attributes): Attributes {
    const out: Attributes = {};
    for (const [key, value] of Object.entries(attributes)) {
      if (typeof value === "string") out[key] = this.#text(value);
      else if (Array.isArray(value))
        out[key] = value.map((v) => (typeof v === "string" ? this.#text(v) : v)) as typeof value;
      else out[key] = value;
    }
    return out;
  }
}
