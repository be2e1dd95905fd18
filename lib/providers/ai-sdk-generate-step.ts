/**
 * AiSdkModel's non-streaming path, for a step whose text nobody reads as it is produced
 * (`ModelRequest.streaming: false`): one `doGenerate` call, and its whole answer given to the
 * engine as the parts the streaming path gives, so the turn cannot tell the two apart.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3ToolCall,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { ModelStreamPart, ModelToolCall, TokenUsage } from "@/lib/engine/ports";

/** How AiSdkModel reads what a provider answered; the same for a streamed and a generated step. */
export interface StepReader {
  /** A client tool call -> the port's call (in strict mode, its arguments mapped back). */
  toolCall(part: LanguageModelV3ToolCall): ModelToolCall;
  /** The provider's usage -> the port's; undefined when it reported none. */
  usage(usage: LanguageModelV3Usage): TokenUsage | undefined;
  /** A failed call -> what to throw: a ProviderError (secrets scrubbed), or the abort reason. */
  fail(error: unknown): unknown;
}

/**
 * One model step in one `doGenerate` call: the step's text as one delta (none when it is
 * empty), then its client tool calls in the provider's order (provider-executed ones are never
 * offered by us and are skipped), then finish with the usage.
 */
export async function* aiSdkGenerateStep(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
  read: StepReader,
): AsyncGenerator<ModelStreamPart> {
  let result: LanguageModelV3GenerateResult;
  try {
    result = await model.doGenerate(call);
  } catch (error) {
    throw read.fail(error);
  }
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  if (text.length > 0) yield { type: "text-delta", text };
  for (const part of result.content) {
    if (part.type === "tool-call" && part.providerExecuted !== true) {
      yield { type: "tool-call", call: read.toolCall(part) };
    }
  }
  const usage = read.usage(result.usage);
  yield usage ? { type: "finish", usage } : { type: "finish" };
}
