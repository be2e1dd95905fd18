/**
 * The one hook a run of a turn goes through to be observed: its event sink is teed so every
 * event also reaches the metrics (always) and, when OTEL export is on, the span builder; its
 * model is wrapped so each step becomes a chat span. Observers see an event when it is
 * emitted, before it is durable, and their failures are swallowed: observing never slows
 * (nothing is awaited) or fails a turn.
 */
import type { EngineEvent, EventSink, Model } from "@/lib/engine/ports";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { redactText } from "@/lib/secrets/redact";
import { knownSecretValues } from "@/lib/secrets/known-secret-values";
import { insikaMetrics } from "./insika-metrics";
import { getOtelExport } from "./otel-export";
import { tracedModel } from "./traced-model";
import { TurnMetrics } from "./turn-metrics";
import { TurnSpans } from "./turn-spans";

export interface ObserveTurnParams {
  turnId: string;
  sessionId: string;
  agent: { id: string; name: string; model: { provider: string; model: string } };
  model: Model;
  sink: EventSink;
  /** Whether a name is one of the turn's possible tools (catalog or system); metrics and spans name the rest unknown. */
  isKnownTool: (name: string) => boolean;
}

export function observeTurn(params: ObserveTurnParams): { model: Model; sink: EventSink } {
  const observers: Array<(event: EngineEvent) => void> = [];
  let model = params.model;
  try {
    const metrics = insikaMetrics();
    const turnMetrics = new TurnMetrics(metrics, params.agent.id, params.isKnownTool);
    observers.push((event) => turnMetrics.event(event));
    const env = getEnv();
    const exported = getOtelExport(env);
    if (exported) {
      const secrets = knownSecretValues();
      const spans = new TurnSpans({
        tracer: exported.tracer,
        ids: exported.ids,
        turnId: params.turnId,
        sessionId: params.sessionId,
        agent: {
          id: params.agent.id,
          name: params.agent.name,
          provider: params.agent.model.provider,
          model: params.agent.model.model,
        },
        captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT,
        redact: (text) => redactText(text, secrets),
        isKnownTool: params.isKnownTool,
      });
      observers.push((event) => spans.event(event));
      model = tracedModel(params.model, (step) => spans.modelStep(step));
    }
  } catch (error) {
    log.warn("observing a turn failed to start; the turn runs unobserved", {
      turn_id: params.turnId,
      ...describeError(error),
    });
    return { model: params.model, sink: params.sink };
  }
  const inner = params.sink;
  return {
    model,
    sink: {
      emit(event) {
        for (const observe of observers) {
          try {
            observe(event);
          } catch {
            // an observer's failure is its own; the turn goes on
          }
        }
        return inner.emit(event);
      },
    },
  };
}
