/**
 * Adapter from an AI SDK provider model (LanguageModelV3, provider spec v3) to the engine's
 * `Model` port. It calls the provider model directly — one model step per call — because the
 * engine runs the tool loop itself; `streamText`/`generateText` would add a second loop and
 * their own retries. A step is streamed (`doStream`) unless nobody reads its text as it is
 * produced (`request.streaming: false`): then it is one non-streaming `doGenerate` call
 * (ai-sdk-generate-step.ts), which costs the provider and the SDK less than a stream.
 */
import type {
  JSONSchema7,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolCall,
  LanguageModelV3ToolResultPart,
  LanguageModelV3Usage,
  SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import { parseToolArguments } from "@/lib/engine/parse-tool-arguments";
import type { Model, ModelMessage, ModelRequest, ModelStreamPart, ModelToolSpec, TokenUsage } from "@/lib/engine/ports";
import { aiSdkGenerateStep, type StepReader } from "./ai-sdk-generate-step";
import { compileForDialect, mapStrictArguments, type Dialect } from "./dialects";
import { ProviderError, toProviderError } from "./provider-error";

/** One call's provider model, built at call time so secrets are read per call. */
export interface AiSdkConnection {
  model: LanguageModelV3;
  /** Values that must never appear in an error message (the API key). */
  secrets?: string[];
}

export interface AiSdkModelOptions {
  id: string;
  /**
   * Called once per `stream()`, told whether the step streams (`doStream`) or is one
   * non-streaming call (`doGenerate`); may throw (e.g. a secret is not provisioned).
   */
  connect: (streaming: boolean) => AiSdkConnection;
  /**
   * `leading` moves every system message to the front (Anthropic takes one system prompt;
   * its adapter would otherwise switch to a beta for mid-conversation system messages).
   * `inline` (default) keeps them where they are.
   */
  systemPlacement?: "inline" | "leading";
  /** Passed to every call, e.g. `{ anthropic: { toolStreaming: false } }`. */
  providerOptions?: SharedV3ProviderOptions;
  /**
   * Strict mode (`model.strict: true`): each tool's schema is compiled to this dialect when
   * sent, and the arguments the model returns are mapped back before the engine sees them.
   */
  strictDialect?: Dialect;
}

/** `Model` over an AI SDK provider model. Yields text deltas, tool calls, then finish. */
export class AiSdkModel implements Model {
  readonly id: string;
  private readonly options: AiSdkModelOptions;

  constructor(options: AiSdkModelOptions) {
    this.id = options.id;
    this.options = options;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    request.signal.throwIfAborted();
    const { model, secrets = [] } = this.options.connect(request.streaming !== false);
    const call: LanguageModelV3CallOptions = {
      prompt: toProviderPrompt(request.messages, this.options.systemPlacement ?? "inline"),
      tools: toProviderTools(request.tools, this.options.strictDialect),
      abortSignal: request.signal,
      ...(this.options.providerOptions ? { providerOptions: this.options.providerOptions } : {}),
    };
    const read: StepReader = {
      toolCall: (part) => this.toToolCall(part, request.tools),
      usage: toTokenUsage,
      fail: (error) => toProviderError(error, request.signal, secrets),
    };
    if (request.streaming === false) {
      yield* aiSdkGenerateStep(model, call, read);
      return;
    }

    let stream: ReadableStream<LanguageModelV3StreamPart>;
    try {
      stream = (await model.doStream(call)).stream;
    } catch (error) {
      throw read.fail(error);
    }

    const reader = stream.getReader();
    let usage: TokenUsage | undefined;
    let finished = false;
    let done = false;
    try {
      for (;;) {
        let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
        try {
          next = await reader.read();
        } catch (error) {
          throw read.fail(error);
        }
        if (next.done) {
          done = true;
          break;
        }
        const part = next.value;
        switch (part.type) {
          case "text-delta":
            if (part.delta.length > 0) yield { type: "text-delta", text: part.delta };
            break;
          case "tool-call":
            // Provider-executed tools are never offered by us; skip them defensively.
            if (part.providerExecuted !== true) yield { type: "tool-call", call: read.toolCall(part) };
            break;
          case "error":
            throw read.fail(part.error);
          case "finish":
            usage = read.usage(part.usage);
            finished = true;
            break;
          default:
            // text-start/end, reasoning, tool-input-* deltas, metadata, raw: not part of the port.
            break;
        }
      }
    } finally {
      if (!done) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
    if (!finished) throw new ProviderError("provider error: the response stream ended early");
    yield usage ? { type: "finish", usage } : { type: "finish" };
  }

  // Strict mode: the nulls the compiled schema made the model send for optional properties are dropped.
  private toToolCall(part: LanguageModelV3ToolCall, tools: ModelToolSpec[]) {
    const tool = this.options.strictDialect === undefined ? undefined : tools.find((t) => t.name === part.toolName);
    const args = tool ? mapStrictArguments(part.input, tool.parameters) : part.input;
    return { id: part.toolCallId, name: part.toolName, arguments: args };
  }
}

/** Our conversation -> the provider prompt (tool results of one step grouped together). */
export function toProviderPrompt(
  messages: ModelMessage[],
  systemPlacement: "inline" | "leading" = "inline",
): LanguageModelV3Prompt {
  const leading: LanguageModelV3Message[] = [];
  const prompt: LanguageModelV3Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        (systemPlacement === "leading" ? leading : prompt).push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
        break;
      case "assistant": {
        const content: Extract<LanguageModelV3Message, { role: "assistant" }>["content"] = [];
        if (message.content.length > 0) content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({
            type: "tool-call",
            toolCallId: call.id,
            toolName: call.name,
            input: argumentsInput(call.arguments),
          });
        }
        // An empty assistant message carries nothing, and Anthropic rejects empty content.
        if (content.length > 0) prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const part: LanguageModelV3ToolResultPart = {
          type: "tool-result",
          toolCallId: message.callId,
          toolName: message.tool,
          output: { type: "text", value: message.content },
        };
        const last = prompt[prompt.length - 1];
        if (last?.role === "tool") last.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return [...leading, ...prompt];
}

/**
 * Our tool specs -> provider function tools; `parameters` is passed as is (same object), or,
 * in strict mode, compiled to the dialect (and flagged `strict` where the provider has the flag).
 */
export function toProviderTools(tools: ModelToolSpec[], strict?: Dialect): LanguageModelV3FunctionTool[] | undefined {
  if (tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: (strict ? compileForDialect(tool.parameters, strict) : tool.parameters) as JSONSchema7,
    ...(strict === "openai-strict" || strict === "anthropic" ? { strict: true } : {}),
  }));
}

/**
 * The raw arguments text of an earlier call -> the object the providers re-serialize.
 * Anthropic needs an object; text the engine refused as arguments (not JSON, not an object,
 * nested too deeply to serialize again; the model already got an error result for it)
 * becomes `{}`, as OpenAI's own adapter does.
 */
function argumentsInput(raw: string): Record<string, unknown> {
  const parsed = parseToolArguments(raw);
  return parsed.ok ? parsed.value : {};
}

function toTokenUsage(usage: LanguageModelV3Usage): TokenUsage | undefined {
  const result: TokenUsage = {};
  if (usage.inputTokens.total !== undefined) result.inputTokens = usage.inputTokens.total;
  if (usage.outputTokens.total !== undefined) result.outputTokens = usage.outputTokens.total;
  return result.inputTokens === undefined && result.outputTokens === undefined ? undefined : result;
}
