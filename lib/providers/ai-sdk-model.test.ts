import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { ModelMessage, ModelStreamPart } from "@/lib/engine/ports";
import { AiSdkModel, toProviderPrompt, toProviderTools } from "./ai-sdk-model";

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
