/**
 * A Model that reports each step it streams (start, end, token usage, how many tool calls,
 * the error if it threw) to `report`, and otherwise passes every part through untouched.
 * The report is made when the stream ends, fails or is abandoned (the engine returns the
 * iterator on a cancel); a report that throws is ignored.
 */
import type { Model, ModelRequest, ModelStreamPart, TokenUsage } from "@/lib/engine/ports";
import type { ModelStepReport } from "./turn-spans";

export function tracedModel(model: Model, report: (step: ModelStepReport) => void, now = Date.now): Model {
  return {
    id: model.id,
    stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      return {
        [Symbol.asyncIterator]() {
          const startedAt = now();
          const inner = model.stream(request)[Symbol.asyncIterator]();
          let usage: TokenUsage | undefined;
          let toolCalls = 0;
          let reported = false;
          const done = (error?: unknown) => {
            if (reported) return;
            reported = true;
            const step: ModelStepReport = { startedAt, endedAt: now(), toolCalls };
            if (usage) step.usage = usage;
            if (error !== undefined) step.error = error instanceof Error ? error.message : String(error);
            try {
              report(step);
            } catch {
              // observing never fails a turn
            }
          };
          return {
            async next() {
              try {
                const next = await inner.next();
                if (next.done) done();
                else if (next.value.type === "tool-call") toolCalls += 1;
                else if (next.value.type === "finish" && next.value.usage) usage = sumUsage(usage, next.value.usage);
                return next;
              } catch (error) {
                done(error);
                throw error;
              }
            },
            async return(value?: unknown) {
              done(request.signal.aborted ? (request.signal.reason ?? "cancelled") : undefined);
              return (await inner.return?.(value)) ?? { done: true, value: undefined };
            },
          };
        },
      };
    },
  };
}

function sumUsage(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  const out: TokenUsage = { ...a };
  if (b.inputTokens !== undefined) out.inputTokens = (out.inputTokens ?? 0) + b.inputTokens;
  if (b.outputTokens !== undefined) out.outputTokens = (out.outputTokens ?? 0) + b.outputTokens;
  return out;
}
