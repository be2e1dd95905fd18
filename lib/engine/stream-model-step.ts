import { abortable } from "./abortable";
import type { EventLog } from "./event-log";
import { MAX_ARGUMENT_CHARS, oversizeArgumentsText } from "./parse-tool-arguments";
import type { Model, ModelRequest, ModelToolCall, TokenUsage } from "./ports";
import { MAX_TOOL_CALLS_PER_STEP } from "./turn-limits";

/** What one model step produced. */
export interface ModelStep {
  /** All text the step streamed (the lead-in, when the step also made calls). */
  text: string;
  toolCalls: ModelToolCall[];
  usage?: TokenUsage;
}

/**
 * Asks the model for one step and consumes its stream: each non-empty text delta becomes a
 * `text_delta` event (in order; the stream does not wait for them to be durable), tool calls
 * are collected in stream order (arguments longer than MAX_ARGUMENT_CHARS replaced by a short
 * note that the call is refused for, so the turn never keeps them), usage is summed. Rejects
 * with whatever the model threw, with an Error at the first tool call past
 * MAX_TOOL_CALLS_PER_STEP (the stream is closed there, not read to its end), or with
 * `request.signal.reason` as soon as the signal aborts, even if the model ignores its signal.
 */
export async function streamModelStep(model: Model, request: ModelRequest, events: EventLog): Promise<ModelStep> {
  const step: ModelStep = { text: "", toolCalls: [] };
  const iterator = model.stream(request)[Symbol.asyncIterator]();
  try {
    for (;;) {
      // Checked first so a stopped turn does not pull (and so run) one more part.
      request.signal.throwIfAborted();
      const next = await abortable(iterator.next(), request.signal);
      if (next.done) break;
      const part = next.value;
      if (part.type === "text-delta") {
        if (part.text === "") continue;
        step.text += part.text;
        events.post({ type: "text_delta", text: part.text });
      } else if (part.type === "tool-call") {
        if (step.toolCalls.length === MAX_TOOL_CALLS_PER_STEP) {
          throw new Error(
            `the model asked for more than ${MAX_TOOL_CALLS_PER_STEP} tool calls in one step (no turn may make more)`,
          );
        }
        const { id, name, arguments: text } = part.call;
        const kept =
          typeof text === "string" && text.length > MAX_ARGUMENT_CHARS ? oversizeArgumentsText(text.length) : text;
        step.toolCalls.push({ id, name, arguments: kept });
      } else if (part.type === "finish") {
        if (part.usage) step.usage = addUsage(step.usage, part.usage);
      }
      // Unknown part types are ignored: an adapter may learn new ones before the engine does.
    }
  } catch (error) {
    // Let the stream clean up (close its connection); its own answer no longer matters.
    iterator.return?.()?.catch(() => undefined);
    throw error;
  }
  return step;
}

/** Sums token counts; a side that reported nothing does not turn the total into NaN. */
export function addUsage(total: TokenUsage | undefined, more: TokenUsage | undefined): TokenUsage | undefined {
  if (!more) return total;
  if (!total) return { ...more };
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const result: TokenUsage = {};
  const input = sum(total.inputTokens, more.inputTokens);
  const output = sum(total.outputTokens, more.outputTokens);
  if (input !== undefined) result.inputTokens = input;
  if (output !== undefined) result.outputTokens = output;
  return result;
}
