// Wire tests of strict mode (`model.strict: true`) per adapter: what each provider is sent (the schema compiled
// to its dialect, flagged strict), and that the nulls a strict model sends for optional properties are dropped.
import { afterEach, describe, expect, it } from "vitest";
import { createModel } from "./create-model";
import {
  anthropicEvent,
  chatChunk,
  loopbackFetch,
  loopbackFetches,
  startLoopbackModelServer,
  type LoopbackModelServer,
  type ScriptedResponse,
} from "@/test/support/loopback-model-server";
import { collect, firstTurn, searchCatalogSchema, secrets } from "@/test/support/wire-fixtures";

let server: LoopbackModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What OpenAI's strict mode is sent for the fixtures' two tools. */
const openAiStrictTools = [
  {
    type: "function",
    function: {
      name: "search_catalog",
      description: "Search the product catalog.",
      strict: true,
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: "free text" },
          limit: { type: ["integer", "null"], minimum: 1, maximum: 50 },
          query_filter_pairs: {
            type: ["array", "null"],
            description: "filters, ANDed",
            items: {
              type: "object",
              properties: {
                field: { type: "string", enum: ["color", "brand", "price"] },
                value: { type: ["string", "number"] },
              },
              required: ["field", "value"],
              additionalProperties: false,
            },
            maxItems: 5,
          },
        },
        required: ["query", "limit", "query_filter_pairs"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: {
      name: "subscribe",
      description: "Subscribe an email to the newsletter.",
      strict: true,
      parameters: {
        type: "object",
        properties: { email: { type: "string", format: "email" } },
        required: ["email"],
        additionalProperties: false,
      },
    },
  },
];

const strictCallStep: ScriptedResponse = {
  kind: "sse",
  events: [
    chatChunk({
      role: "assistant",
      tool_calls: [
        {
          index: 0,
          id: "call_a",
          type: "function",
          function: { name: "search_catalog", arguments: '{"query":"lamp","limit":null,"query_filter_pairs":null}' },
        },
      ],
    }),
    chatChunk({}, "tool_calls"),
  ]
    .map((data) => ({ data }))
    .concat([{ data: "[DONE]" }]),
};

for (const provider of ["openai-compatible", "openai"] as const) {
  describe(`${provider}, model.strict: true`, () => {
    it("sends the schema compiled to OpenAI strict mode and drops the nulls of optional properties", async () => {
      server = await startLoopbackModelServer([strictCallStep]);
      const model = createModel(
        { provider, model: "m", base_url: `${server.baseUrl}/v1`, api_key_secret: "k", strict: true },
        { readSecret: secrets({ k: "sk-1" }), ...loopbackFetches },
      );
      const parts = await collect(model, firstTurn);
      expect((server.requests[0]!.body as { tools: unknown }).tools).toStrictEqual(openAiStrictTools);
      expect(parts[0]).toStrictEqual({
        type: "tool-call",
        call: { id: "call_a", name: "search_catalog", arguments: '{"query":"lamp"}' },
      });
    });

    it("without strict, the same call keeps its arguments and the schema goes verbatim", async () => {
      server = await startLoopbackModelServer([strictCallStep]);
      const model = createModel(
        { provider, model: "m", base_url: `${server.baseUrl}/v1`, api_key_secret: "k" },
        { readSecret: secrets({ k: "sk-1" }), ...loopbackFetches },
      );
      const parts = await collect(model, firstTurn);
      const tools = (server.requests[0]!.body as { tools: { function: Record<string, unknown> }[] }).tools;
      expect(tools[0]!.function.parameters).toStrictEqual(searchCatalogSchema);
      expect(tools[0]!.function).not.toHaveProperty("strict");
      expect(parts[0]).toMatchObject({
        call: { arguments: '{"query":"lamp","limit":null,"query_filter_pairs":null}' },
      });
    });
  });
}

describe("anthropic, model.strict: true", () => {
  it("sends every object closed and flags each tool strict", async () => {
    server = await startLoopbackModelServer([
      {
        kind: "sse",
        events: [
          anthropicEvent({
            type: "message_start",
            message: {
              id: "m1",
              type: "message",
              role: "assistant",
              model: "claude-sonnet-5-5",
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 1, output_tokens: 1 },
            },
          }),
          anthropicEvent({
            type: "content_block_start",
            index: 0,
            content_block: { type: "tool_use", id: "toolu_1", name: "subscribe", input: {} },
          }),
          anthropicEvent({
            type: "content_block_delta",
            index: 0,
            delta: { type: "input_json_delta", partial_json: '{"email":"a@b.c"}' },
          }),
          anthropicEvent({ type: "content_block_stop", index: 0 }),
          anthropicEvent({
            type: "message_delta",
            delta: { stop_reason: "tool_use", stop_sequence: null },
            usage: { output_tokens: 3 },
          }),
          anthropicEvent({ type: "message_stop" }),
        ],
      },
    ]);
    const model = createModel(
      {
        provider: "anthropic",
        model: "claude-sonnet-5-5",
        base_url: `${server.baseUrl}/v1`,
        api_key_secret: "k",
        strict: true,
      },
      { readSecret: secrets({ k: "sk-ant" }), ...loopbackFetches },
    );
    const parts = await collect(model, firstTurn);
    const tools = (server.requests[0]!.body as { tools: Record<string, unknown>[] }).tools;
    expect(tools[1]).toStrictEqual({
      name: "subscribe",
      description: "Subscribe an email to the newsletter.",
      input_schema: {
        type: "object",
        properties: { email: { type: "string", format: "email" } },
        required: ["email"],
        additionalProperties: false,
      },
      strict: true,
    });
    expect((tools[0]!.input_schema as Record<string, unknown>).additionalProperties).toBe(false);
    expect(parts[0]).toStrictEqual({
      type: "tool-call",
      call: { id: "toolu_1", name: "subscribe", arguments: '{"email":"a@b.c"}' },
    });
  });
});

describe("Gemini (openai-compatible on Google's host), model.strict: true", () => {
  it("is compiled to Gemini's dialect: no additionalProperties, one type per node", async () => {
    server = await startLoopbackModelServer([strictCallStep]);
    // The host decides the dialect; the loopback server stands in for it through a fetch that rewrites the origin.
    const target = server.baseUrl;
    const model = createModel(
      {
        provider: "openai-compatible",
        model: "gemini-2.5-flash",
        base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
        strict: true,
      },
      {
        readSecret: secrets({}),
        fetch: (input, init) =>
          loopbackFetch(String(input).replace("https://generativelanguage.googleapis.com", target), init),
      },
    );
    await collect(model, firstTurn);
    const tools = (server.requests[0]!.body as { tools: { function: Record<string, unknown> }[] }).tools;
    expect(tools[0]!.function.parameters).toStrictEqual({
      type: "object",
      properties: {
        query: { type: "string", description: "free text", minLength: 1 },
        limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
        query_filter_pairs: {
          type: "array",
          description: "filters, ANDed",
          items: {
            type: "object",
            properties: { field: { type: "string", enum: ["color", "brand", "price"] }, value: { type: "string" } },
            required: ["field", "value"],
          },
          maxItems: 5,
        },
      },
      required: ["query"],
    });
    expect(tools[0]!.function).not.toHaveProperty("strict");
  });
});
