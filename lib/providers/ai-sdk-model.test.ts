import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { APICallError } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ModelMessage, ModelRequest, ModelStreamPart, ModelToolSpec } from "@/lib/engine/ports";
import { AiSdkModel, toProviderPrompt, toProviderTools } from "./ai-sdk-model";
import { ProviderError } from "./provider-error";

const usage = (input?: number, output?: number) => ({
  inputTokens: { total: input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: undefined, reasoning: undefined },
});

/** A provider model that replays stream parts and records the options it was called with. */
function fakeProvider(parts: LanguageModelV3StreamPart[]) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "fake",
    modelId: "fake-1",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: async (options) => {
      calls.push(options);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
  return { model, calls };
}

async function run(model: AiSdkModel, messages: ModelMessage[] = [{ role: "user", content: "hi" }]) {
  const out: ModelStreamPart[] = [];
  for await (const part of model.stream({ messages, tools: [], signal: new AbortController().signal })) out.push(part);
  return out;
}

describe("toProviderPrompt", () => {
  it("maps every role, keeps raw call ids, and groups the tool results of one step", () => {
    const prompt = toProviderPrompt([
      { role: "system", content: "sys" },
      { role: "user", content: "hello" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "c1", name: "t", arguments: '{"a":1}' },
          { id: "c2", name: "u", arguments: "not json" },
        ],
      },
      { role: "tool", callId: "c1", tool: "t", content: '{"ok":true}' },
      { role: "tool", callId: "c2", tool: "u", content: '{"error":"bad arguments"}' },
      { role: "assistant", content: "done" },
    ]);
    expect(prompt).toStrictEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "hello" }] },
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "c1", toolName: "t", input: { a: 1 } },
          { type: "tool-call", toolCallId: "c2", toolName: "u", input: {} },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "t", output: { type: "text", value: '{"ok":true}' } },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "u",
            output: { type: "text", value: '{"error":"bad arguments"}' },
          },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
    ]);
  });

  it("sends {} for an earlier call whose arguments were refused as too deeply nested", () => {
    const deep = `{"q":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const prompt = toProviderPrompt([
      { role: "user", content: "q" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "t", arguments: deep }] },
      { role: "tool", callId: "c1", tool: "t", content: '{"error":"arguments are nested too deeply"}' },
    ]);
    expect(prompt[1]).toStrictEqual({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "t", input: {} }],
    });
    // What the provider SDK does with it next: serialize it into the request body.
    expect(() => JSON.stringify(prompt)).not.toThrow();
  });

  it("drops empty assistant messages and can move system messages to the front", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: "" },
      { role: "system", content: "late" },
    ];
    expect(toProviderPrompt(messages).map((m) => m.role)).toStrictEqual(["user", "system"]);
    expect(toProviderPrompt(messages, "leading").map((m) => m.role)).toStrictEqual(["system", "user"]);
  });
});

describe("toProviderTools", () => {
  it("passes the parameters object itself, adding nothing", () => {
    const parameters = { type: "object" as const, properties: { q: { type: "string" } }, "x-extra": [1] };
    const tools = toProviderTools([{ name: "t", description: "d", parameters }]);
    expect(tools).toStrictEqual([{ type: "function", name: "t", description: "d", inputSchema: parameters }]);
    expect(tools?.[0]?.inputSchema).toBe(parameters);
    expect(toProviderTools([])).toBeUndefined();
  });
});

describe("AiSdkModel.stream", () => {
  it("maps text deltas and client tool calls, skips everything else, reports usage", async () => {
    const { model, calls } = fakeProvider([
      { type: "stream-start", warnings: [] },
      { type: "text-start", id: "0" },
      { type: "text-delta", id: "0", delta: "Hi" },
      { type: "text-delta", id: "0", delta: "" },
      { type: "reasoning-delta", id: "r", delta: "thinking" },
      { type: "tool-input-start", id: "c1", toolName: "t" },
      { type: "tool-input-delta", id: "c1", delta: "{}" },
      { type: "tool-call", toolCallId: "c1", toolName: "t", input: '{ "a" : 1 }' },
      { type: "tool-call", toolCallId: "s1", toolName: "web_search", input: "{}", providerExecuted: true },
      { type: "finish", usage: usage(3, 4), finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ]);
    const adapter = new AiSdkModel({ id: "fake:1", connect: () => ({ model }), providerOptions: { fake: { x: 1 } } });
    expect(await run(adapter)).toStrictEqual([
      { type: "text-delta", text: "Hi" },
      { type: "tool-call", call: { id: "c1", name: "t", arguments: '{ "a" : 1 }' } },
      { type: "finish", usage: { inputTokens: 3, outputTokens: 4 } },
    ]);
    expect(calls[0]?.providerOptions).toStrictEqual({ fake: { x: 1 } });
    expect(calls[0]?.tools).toBeUndefined();
    expect(calls[0]?.toolChoice).toBeUndefined();
  });

  it("omits usage the provider did not report", async () => {
    const { model } = fakeProvider([
      { type: "finish", usage: usage(), finishReason: { unified: "stop", raw: "stop" } },
    ]);
    expect(await run(new AiSdkModel({ id: "f", connect: () => ({ model }) }))).toStrictEqual([{ type: "finish" }]);
  });

  it("fails when the stream ends without a finish part", async () => {
    const { model } = fakeProvider([{ type: "text-delta", id: "0", delta: "cut" }]);
    await expect(run(new AiSdkModel({ id: "f", connect: () => ({ model }) }))).rejects.toThrow(
      "provider error: the response stream ended early",
    );
  });

  it("scrubs secret values from error parts", async () => {
    const { model } = fakeProvider([{ type: "error", error: new Error("bad key sk-secret-value given") }]);
    const adapter = new AiSdkModel({ id: "f", connect: () => ({ model, secrets: ["sk-secret-value"] }) });
    await expect(run(adapter)).rejects.toThrow("provider error: bad key [secret] given");
  });

  it("does not call the provider when the signal is already aborted", async () => {
    const { model, calls } = fakeProvider([]);
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const adapter = new AiSdkModel({ id: "f", connect: () => ({ model }) });
    const iterate = async () => {
      for await (const _ of adapter.stream({ messages: [], tools: [], signal: controller.signal })) void _;
    };
    await expect(iterate()).rejects.toThrow("stop");
    expect(calls).toHaveLength(0);
  });
});

describe("AiSdkModel.stream with streaming: false", () => {
  const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
    messages: [{ role: "user", content: "hi" }],
    tools: [],
    signal: new AbortController().signal,
    streaming: false,
    ...overrides,
  });
  const collect = async (adapter: AiSdkModel, req: ModelRequest) => {
    const out: ModelStreamPart[] = [];
    for await (const part of adapter.stream(req)) out.push(part);
    return out;
  };
  const generated = (content: LanguageModelV3Content[], tokens = usage(5, 7)): LanguageModelV3GenerateResult => ({
    content,
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage: tokens,
    warnings: [],
  });

  it("asks doGenerate once and yields the text as one delta, the client tool calls, then finish with usage", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([
        { type: "text", text: "Let me " },
        { type: "reasoning", text: "thinking" },
        { type: "text", text: "look." },
        { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: '{ "q" : "x" }' },
        { type: "tool-call", toolCallId: "s1", toolName: "web_search", input: "{}", providerExecuted: true },
        { type: "tool-call", toolCallId: "c2", toolName: "lookup", input: '{"q":"y"}' },
      ]),
    });
    const adapter = new AiSdkModel({ id: "m", connect: () => ({ model }), providerOptions: { fake: { x: 1 } } });
    const tools: ModelToolSpec[] = [{ name: "lookup", description: "d", parameters: { type: "object" } }];
    const signal = new AbortController().signal;

    expect(await collect(adapter, request({ tools, signal }))).toStrictEqual([
      { type: "text-delta", text: "Let me look." },
      { type: "tool-call", call: { id: "c1", name: "lookup", arguments: '{ "q" : "x" }' } },
      { type: "tool-call", call: { id: "c2", name: "lookup", arguments: '{"q":"y"}' } },
      { type: "finish", usage: { inputTokens: 5, outputTokens: 7 } },
    ]);
    expect(model.doStreamCalls).toHaveLength(0);
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0]!;
    expect(call.prompt).toStrictEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
    expect(call.tools).toStrictEqual(toProviderTools(tools));
    expect(call.abortSignal).toBe(signal);
    expect(call.providerOptions).toStrictEqual({ fake: { x: 1 } });
  });

  it("yields no text delta for a step without text, and no usage the provider did not report", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: generated([{ type: "tool-call", toolCallId: "c1", toolName: "t", input: "{}" }], usage()),
    });
    const adapter = new AiSdkModel({ id: "m", connect: () => ({ model }) });
    expect(await collect(adapter, request())).toStrictEqual([
      { type: "tool-call", call: { id: "c1", name: "t", arguments: "{}" } },
      { type: "finish" },
    ]);
  });

  it("streams as before when streaming is true or absent", async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: "finish", usage: usage(1, 1), finishReason: { unified: "stop", raw: "stop" } });
            controller.close();
          },
        }),
      }),
    });
    const adapter = new AiSdkModel({ id: "m", connect: () => ({ model }) });
    await collect(adapter, request({ streaming: true }));
    const { streaming: _omitted, ...withoutFlag } = request();
    await collect(adapter, withoutFlag);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it("turns a provider error into a ProviderError with the status kept and the key scrubbed", async () => {
    const key = "sk-generate-secret-42";
    const model = new MockLanguageModelV3({
      doGenerate: () =>
        Promise.reject(
          new APICallError({
            message: `Incorrect API key provided: ${key}`,
            url: "https://api.example.com/v1/chat/completions",
            requestBodyValues: {},
            statusCode: 401,
            responseBody: `{"error":{"message":"Incorrect API key provided: ${key}"}}`,
          }),
        ),
    });
    const adapter = new AiSdkModel({ id: "m", connect: () => ({ model, secrets: [key] }) });
    const error = await collect(adapter, request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(401);
    expect((error as Error).message).toBe("provider error: 401 Unauthorized: Incorrect API key provided: [secret]");
  });

  it("rethrows the abort reason when the signal aborts during the call", async () => {
    const controller = new AbortController();
    const reason = new Error("turn cancelled");
    const model = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
          controller.abort(reason);
        }),
    });
    const adapter = new AiSdkModel({ id: "m", connect: () => ({ model }) });
    await expect(collect(adapter, request({ signal: controller.signal }))).rejects.toBe(reason);
  });

  it("in strict mode sends the compiled schema and maps the model's nulls for optional properties back", async () => {
    const parameters = {
      type: "object",
      properties: { q: { type: "string" }, limit: { type: "integer" } },
      required: ["q"],
    };
    const model = new MockLanguageModelV3({
      doGenerate: generated([
        { type: "tool-call", toolCallId: "c1", toolName: "find", input: '{"q":"x","limit":null}' },
      ]),
    });
    const adapter = new AiSdkModel({ id: "m", connect: () => ({ model }), strictDialect: "openai-strict" });
    const tools: ModelToolSpec[] = [{ name: "find", description: "d", parameters }];

    const parts = await collect(adapter, request({ tools }));
    expect(parts[0]).toStrictEqual({ type: "tool-call", call: { id: "c1", name: "find", arguments: '{"q":"x"}' } });
    const sent = model.doGenerateCalls[0]!.tools as LanguageModelV3FunctionTool[];
    expect(sent).toStrictEqual(toProviderTools(tools, "openai-strict"));
    expect(sent[0]).toMatchObject({ strict: true, inputSchema: { required: ["q", "limit"] } });
  });
});
