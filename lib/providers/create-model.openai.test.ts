// Wire tests: openai-compatible and openai (Chat Completions, streamed and not) against a loopback server.
import { afterEach, describe, expect, it } from "vitest";
import { createModel } from "./create-model";
import { createProviderFetch } from "./provider-fetch";
import { ProviderError } from "./provider-error";
import type { Model, ModelMessage, ModelStreamPart } from "@/lib/engine/ports";
import {
  asksForStream,
  chatChunk,
  chatCompletion,
  chatUsageChunk,
  LOOPBACK_PROVIDER_POSTURE,
  loopbackFetches,
  startLoopbackModelServer,
  type LoopbackModelServer,
  type ScriptedResponse,
} from "@/test/support/loopback-model-server";
import {
  collect,
  firstTurn,
  searchCatalogSchema,
  searchResult,
  secondTurn,
  secrets,
  subscribeResult,
  subscribeSchema,
  wireTools,
} from "@/test/support/wire-fixtures";

/** What the scripted first turn ends with, streamed or not: its two tool calls, then usage. */
const CALLS_AND_FINISH = [
  { type: "tool-call", call: { id: "call_a", name: "search_catalog", arguments: '{"query": "lamp", "limit": 3}' } },
  { type: "tool-call", call: { id: "call_b", name: "subscribe", arguments: '{"email": "a@b.c"}' } },
  { type: "finish", usage: { inputTokens: 42, outputTokens: 17 } },
];

const KEY = "sk-test-123-do-not-leak";
let server: LoopbackModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Lead-in text, then two parallel tool calls whose arguments arrive split and interleaved. */
const toolStep: ScriptedResponse = {
  kind: "sse",
  events: [
    chatChunk({ role: "assistant", content: "Let me " }),
    chatChunk({ content: "look that up." }),
    chatChunk({
      tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "search_catalog", arguments: "" } }],
    }),
    chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"query": ' } }] }),
    chatChunk({
      tool_calls: [
        { index: 1, id: "call_b", type: "function", function: { name: "subscribe", arguments: '{"email"' } },
      ],
    }),
    chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"lamp", "limit": 3}' } }] }),
    chatChunk({ tool_calls: [{ index: 1, function: { arguments: ': "a@b.c"}' } }] }),
    chatChunk({}, "tool_calls"),
    chatUsageChunk(42, 17),
  ]
    .map((data) => ({ data }))
    .concat([{ data: "[DONE]" }]),
};

/** The second request of the bench conversation: the lead-in, both calls and their results. */
const lampsAnswered = () =>
  secondTurn("Let me look that up.", ["call_a", "call_b"], ['{"query": "lamp", "limit": 3}', '{"email": "a@b.c"}']);

const answerStep: ScriptedResponse = {
  kind: "sse",
  events: [
    { data: chatChunk({ role: "assistant", content: "Found 2 lamps" }) },
    { data: chatChunk({ content: "; you are subscribed." }) },
    { data: chatChunk({}, "stop") },
    { data: chatUsageChunk(80, 9) },
    { data: "[DONE]" },
  ],
};

type Body = { messages: unknown[]; tools: unknown; stream: boolean; stream_options: unknown; model: string };

/** A step asked with `streaming: false` (one non-streaming call), its parts collected. */
async function collectWhole(model: Model, messages: ModelMessage[]): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  const request = { messages, tools: wireTools(), signal: new AbortController().signal, streaming: false };
  for await (const part of model.stream(request)) parts.push(part);
  return parts;
}

for (const provider of ["openai-compatible", "openai"] as const) {
  describe(`${provider} over Chat Completions`, () => {
    it("sends tools verbatim, streams the lead-in before parallel tool calls, then sends results back", async () => {
      server = await startLoopbackModelServer([toolStep, answerStep]);
      const model = createModel(
        { provider, model: "test-model", base_url: `${server.baseUrl}/v1`, api_key_secret: "llm_key" },
        { readSecret: secrets({ llm_key: KEY }), ...loopbackFetches },
      );
      expect(model.id).toBe(`${provider}:test-model`);

      const parts = await collect(model, firstTurn);
      expect(parts).toStrictEqual([
        { type: "text-delta", text: "Let me " },
        { type: "text-delta", text: "look that up." },
        ...CALLS_AND_FINISH,
      ]);

      const first = server.requests[0]!;
      expect(first.method).toBe("POST");
      expect(first.url).toBe("/v1/chat/completions");
      expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
      const body = first.body as Body;
      expect(body.model).toBe("test-model");
      expect(body.stream).toBe(true);
      expect(body.stream_options).toStrictEqual({ include_usage: true });
      expect(body.tools).toStrictEqual([
        {
          type: "function",
          function: {
            name: "search_catalog",
            description: "Search the product catalog.",
            parameters: searchCatalogSchema,
          },
        },
        {
          type: "function",
          function: {
            name: "subscribe",
            description: "Subscribe an email to the newsletter.",
            parameters: subscribeSchema,
          },
        },
      ]);
      expect(body.messages).toStrictEqual([
        { role: "system", content: "You are a shop assistant." },
        { role: "user", content: "find lamps and subscribe a@b.c" },
      ]);

      const answer = await collect(model, lampsAnswered());
      expect(answer).toStrictEqual([
        { type: "text-delta", text: "Found 2 lamps" },
        { type: "text-delta", text: "; you are subscribed." },
        { type: "finish", usage: { inputTokens: 80, outputTokens: 9 } },
      ]);
      const second = server.requests[1]!.body as Body;
      expect(second.messages.slice(2)).toStrictEqual([
        {
          role: "assistant",
          content: "Let me look that up.",
          tool_calls: [
            {
              id: "call_a",
              type: "function",
              function: { name: "search_catalog", arguments: '{"query":"lamp","limit":3}' },
            },
            { id: "call_b", type: "function", function: { name: "subscribe", arguments: '{"email":"a@b.c"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: searchResult },
        { role: "tool", tool_call_id: "call_b", content: subscribeResult },
      ]);
    });

    it("asks for one JSON answer when nobody reads the step as it is produced, and gives the same parts", async () => {
      server = await startLoopbackModelServer([
        {
          kind: "json",
          body: chatCompletion({
            text: "Let me look that up.",
            toolCalls: [
              { id: "call_a", name: "search_catalog", arguments: '{"query": "lamp", "limit": 3}' },
              { id: "call_b", name: "subscribe", arguments: '{"email": "a@b.c"}' },
            ],
            usage: { prompt: 42, completion: 17 },
          }),
        },
        {
          kind: "json",
          body: chatCompletion({ text: "Found 2 lamps; you are subscribed.", usage: { prompt: 80, completion: 9 } }),
        },
      ]);
      const model = createModel(
        { provider, model: "test-model", base_url: `${server.baseUrl}/v1`, api_key_secret: "llm_key" },
        { readSecret: secrets({ llm_key: KEY }), ...loopbackFetches },
      );

      expect(await collectWhole(model, firstTurn)).toStrictEqual([
        { type: "text-delta", text: "Let me look that up." },
        ...CALLS_AND_FINISH,
      ]);
      const first = server.requests[0]!;
      expect(first.url).toBe("/v1/chat/completions");
      expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(asksForStream(first)).toBe(false);
      const body = first.body as Body;
      expect(body).not.toHaveProperty("stream_options");
      expect(body.messages).toStrictEqual([
        { role: "system", content: "You are a shop assistant." },
        { role: "user", content: "find lamps and subscribe a@b.c" },
      ]);
      expect((body.tools as unknown[]).length).toBe(2);

      const answer = await collectWhole(model, lampsAnswered());
      expect(answer).toStrictEqual([
        { type: "text-delta", text: "Found 2 lamps; you are subscribed." },
        { type: "finish", usage: { inputTokens: 80, outputTokens: 9 } },
      ]);
      expect((server.requests[1]!.body as Body).messages.slice(2)).toHaveLength(3);
    });

    it("turns a 401 into a clear error that does not contain the key", async () => {
      const body = JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${KEY}`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      });
      server = await startLoopbackModelServer([{ kind: "error", status: 401, body }]);
      const model = createModel(
        { provider, model: "m", base_url: `${server.baseUrl}/v1`, api_key_secret: "llm_key" },
        { readSecret: secrets({ llm_key: KEY }), ...loopbackFetches },
      );
      const error = await collect(model, firstTurn).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(401);
      expect((error as Error).message).toBe("provider error: 401 Unauthorized: Incorrect API key provided: [secret]");
      expect((error as Error).message).not.toContain(KEY);
    });

    it("turns a 401 to a non-streaming call into the same clear error", async () => {
      const body = JSON.stringify({
        error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" },
      });
      server = await startLoopbackModelServer([{ kind: "error", status: 401, body }]);
      const model = createModel(
        { provider, model: "m", base_url: `${server.baseUrl}/v1`, api_key_secret: "llm_key" },
        { readSecret: secrets({ llm_key: KEY }), ...loopbackFetches },
      );
      const error = await collectWhole(model, firstTurn).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).status).toBe(401);
      expect((error as Error).message).toBe("provider error: 401 Unauthorized: Incorrect API key provided: [secret]");
      expect(asksForStream(server.requests[0])).toBe(false);
    });

    it("turns a 500 with a text body into a clear error", async () => {
      server = await startLoopbackModelServer([
        { kind: "error", status: 500, body: "upstream exploded", contentType: "text/plain" },
      ]);
      const model = createModel(
        { provider, model: "m", base_url: `${server.baseUrl}/v1`, api_key_secret: "llm_key" },
        { readSecret: secrets({ llm_key: KEY }), ...loopbackFetches },
      );
      await expect(collect(model, firstTurn)).rejects.toThrow(
        "provider error: 500 Internal Server Error: upstream exploded",
      );
    });

    it("names the missing secret (and sends nothing) when it is not provisioned", async () => {
      server = await startLoopbackModelServer([answerStep]);
      const model = createModel(
        { provider, model: "m", base_url: `${server.baseUrl}/v1`, api_key_secret: "llm_key" },
        { readSecret: secrets({ other: KEY }), ...loopbackFetches },
      );
      const error = (await collect(model, firstTurn).catch((e: unknown) => e)) as Error;
      expect(error.message).toContain('secret "llm_key" is not provisioned');
      expect(error.message).toContain("INSIKA_PROVIDER_SECRET_LLM_KEY");
      expect(error.message).not.toContain(KEY);
      expect(server.requests).toHaveLength(0);
    });
  });
}

describe("openai-compatible specifics", () => {
  it("sends no Authorization header without api_key_secret (Ollama, llama.cpp)", async () => {
    server = await startLoopbackModelServer([answerStep]);
    const model = createModel(
      { provider: "openai-compatible", model: "llama3", base_url: `${server.baseUrl}/v1/` },
      { readSecret: () => undefined, ...loopbackFetches },
    );
    const parts = await collect(model, [{ role: "user", content: "hi" }], []);
    expect(parts.at(-1)).toStrictEqual({ type: "finish", usage: { inputTokens: 80, outputTokens: 9 } });
    expect(server.requests[0]!.url).toBe("/v1/chat/completions");
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[0]!.body).not.toHaveProperty("tools");
  });

  it("reads the secret at call time, so a rotated key is used by the next call", async () => {
    server = await startLoopbackModelServer([answerStep, answerStep]);
    let current = "key-one";
    const model = createModel(
      { provider: "openai-compatible", model: "m", base_url: server.baseUrl, api_key_secret: "k" },
      { readSecret: (name) => (name === "k" ? current : undefined), ...loopbackFetches },
    );
    await collect(model, firstTurn);
    current = "key-two";
    await collect(model, firstTurn);
    expect(server.requests.map((r) => r.headers.authorization)).toStrictEqual(["Bearer key-one", "Bearer key-two"]);
  });

  it("throws an error event inside the stream as a provider error", async () => {
    server = await startLoopbackModelServer([
      {
        kind: "sse",
        events: [
          { data: chatChunk({ content: "Hel" }) },
          { data: JSON.stringify({ error: { message: "model overloaded", type: "server_error" } }) },
        ],
      },
    ]);
    const model = createModel(
      { provider: "openai-compatible", model: "m", base_url: server.baseUrl },
      { readSecret: () => undefined, ...loopbackFetches },
    );
    const seen: string[] = [];
    const run = async () => {
      for await (const part of model.stream({ messages: firstTurn, tools: [], signal: new AbortController().signal })) {
        if (part.type === "text-delta") seen.push(part.text);
      }
    };
    await expect(run()).rejects.toThrow("provider error: server_error: model overloaded");
    expect(seen).toStrictEqual(["Hel"]);
  });

  it("reports an unreachable endpoint clearly", async () => {
    const closed = await startLoopbackModelServer([]);
    await closed.close();
    const model = createModel(
      { provider: "openai-compatible", model: "m", base_url: closed.baseUrl },
      { readSecret: () => undefined, ...loopbackFetches },
    );
    await expect(collect(model, firstTurn)).rejects.toThrow(
      /^provider error: Cannot connect to API: .*\(http:\/\/127\.0\.0\.1:\d+\/chat\/completions\)$/,
    );
  });

  it("fails a step read whole whose answer is over the cap, naming the cap", async () => {
    server = await startLoopbackModelServer([
      { kind: "json", body: chatCompletion({ text: "x".repeat(4096), usage: { prompt: 1, completion: 1 } }) },
    ]);
    const model = createModel(
      { provider: "openai-compatible", model: "m", base_url: `${server.baseUrl}/v1` },
      {
        readSecret: () => undefined,
        ...loopbackFetches,
        wholeAnswerFetch: createProviderFetch(LOOPBACK_PROVIDER_POSTURE, { bufferUpTo: 1024 }),
      },
    );
    await expect(collectWhole(model, firstTurn)).rejects.toThrow(
      /^provider error: Cannot connect to API: the response body is larger than 1024 bytes \(http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\)$/,
    );
  });

  it("stops when the signal aborts mid-stream and rethrows the abort reason", async () => {
    server = await startLoopbackModelServer([
      { kind: "sse", events: [{ data: chatChunk({ content: "partial" }) }], hang: true },
    ]);
    const model = createModel(
      { provider: "openai-compatible", model: "m", base_url: server.baseUrl },
      { readSecret: () => undefined, ...loopbackFetches },
    );
    const controller = new AbortController();
    const reason = new Error("turn cancelled");
    const seen: string[] = [];
    const run = async () => {
      for await (const part of model.stream({ messages: firstTurn, tools: wireTools(), signal: controller.signal })) {
        if (part.type === "text-delta") {
          seen.push(part.text);
          controller.abort(reason);
        }
      }
    };
    await expect(run()).rejects.toBe(reason);
    expect(seen).toStrictEqual(["partial"]);
  });
});
