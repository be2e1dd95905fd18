// Wire tests: anthropic (Messages API, streamed and not) against a loopback server.
import { afterEach, describe, expect, it } from "vitest";
import { createModel } from "./create-model";
import { ProviderError } from "./provider-error";
import {
  anthropicEvent,
  asksForStream,
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

const KEY = "sk-ant-test-do-not-leak";
let server: LoopbackModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const messageStart = anthropicEvent({
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 1 },
  },
});

const toolUseStart = (index: number, id: string, name: string) =>
  anthropicEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } });
const jsonDelta = (index: number, partial_json: string) =>
  anthropicEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
const textDelta = (index: number, text: string) =>
  anthropicEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
const blockStop = (index: number) => anthropicEvent({ type: "content_block_stop", index });
const messageEnd = (stopReason: string, outputTokens: number) => [
  anthropicEvent({
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  }),
  anthropicEvent({ type: "message_stop" }),
];

const toolStep: ScriptedResponse = {
  kind: "sse",
  events: [
    messageStart,
    anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    textDelta(0, "Calling "),
    textDelta(0, "both tools."),
    blockStop(0),
    toolUseStart(1, "toolu_a", "search_catalog"),
    jsonDelta(1, ""),
    jsonDelta(1, '{"query": "la'),
    jsonDelta(1, 'mp", "limit": 3}'),
    blockStop(1),
    toolUseStart(2, "toolu_b", "subscribe"),
    jsonDelta(2, '{"email": '),
    jsonDelta(2, '"a@b.c"}'),
    blockStop(2),
    ...messageEnd("tool_use", 30),
  ],
};

const answerStep: ScriptedResponse = {
  kind: "sse",
  events: [
    messageStart,
    anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    textDelta(0, "Found 2 lamps; "),
    textDelta(0, "you are subscribed."),
    blockStop(0),
    ...messageEnd("end_turn", 12),
  ],
};

type Body = {
  model: string;
  system: unknown;
  messages: unknown[];
  tools: unknown;
  stream: boolean;
  max_tokens: number;
};

function anthropicModel(baseUrl: string, readSecret = secrets({ anthropic_key: KEY })) {
  return createModel(
    { provider: "anthropic", model: "claude-test", base_url: `${baseUrl}/v1`, api_key_secret: "anthropic_key" },
    { readSecret, ...loopbackFetches },
  );
}

describe("anthropic over the Messages API", () => {
  it("asks for one JSON message when nobody reads the step as it is produced, and gives the same parts", async () => {
    server = await startLoopbackModelServer([
      {
        kind: "json",
        body: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: "claude-test",
          content: [
            { type: "text", text: "Calling both tools." },
            { type: "tool_use", id: "toolu_a", name: "search_catalog", input: { query: "lamp", limit: 3 } },
            { type: "tool_use", id: "toolu_b", name: "subscribe", input: { email: "a@b.c" } },
          ],
          stop_reason: "tool_use",
          stop_sequence: null,
          usage: { input_tokens: 25, output_tokens: 30 },
        },
      },
    ]);
    const model = anthropicModel(server.baseUrl);
    const parts = [];
    const signal = new AbortController().signal;
    for await (const part of model.stream({ messages: firstTurn, tools: wireTools(), signal, streaming: false })) {
      parts.push(part);
    }
    expect(parts).toStrictEqual([
      { type: "text-delta", text: "Calling both tools." },
      { type: "tool-call", call: { id: "toolu_a", name: "search_catalog", arguments: '{"query":"lamp","limit":3}' } },
      { type: "tool-call", call: { id: "toolu_b", name: "subscribe", arguments: '{"email":"a@b.c"}' } },
      { type: "finish", usage: { inputTokens: 25, outputTokens: 30 } },
    ]);
    const first = server.requests[0]!;
    expect(first.url).toBe("/v1/messages");
    expect(first.headers["x-api-key"]).toBe(KEY);
    expect(asksForStream(first)).toBe(false);
  });

  it("sends tools verbatim, streams the lead-in before parallel tool_use calls, then sends tool_result blocks", async () => {
    server = await startLoopbackModelServer([toolStep, answerStep]);
    const model = anthropicModel(server.baseUrl);
    expect(model.id).toBe("anthropic:claude-test");

    const parts = await collect(model, firstTurn);
    expect(parts).toStrictEqual([
      { type: "text-delta", text: "Calling " },
      { type: "text-delta", text: "both tools." },
      {
        type: "tool-call",
        call: { id: "toolu_a", name: "search_catalog", arguments: '{"query": "lamp", "limit": 3}' },
      },
      { type: "tool-call", call: { id: "toolu_b", name: "subscribe", arguments: '{"email": "a@b.c"}' } },
      { type: "finish", usage: { inputTokens: 25, outputTokens: 30 } },
    ]);

    const first = server.requests[0]!;
    expect(first.method).toBe("POST");
    expect(first.url).toBe("/v1/messages");
    expect(first.headers["x-api-key"]).toBe(KEY);
    expect(first.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first.headers.authorization).toBeUndefined();
    const body = first.body as Body;
    expect(body.model).toBe("claude-test");
    expect(body.stream).toBe(true);
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body.system).toStrictEqual([{ type: "text", text: "You are a shop assistant." }]);
    expect(body.tools).toStrictEqual([
      { name: "search_catalog", description: "Search the product catalog.", input_schema: searchCatalogSchema },
      { name: "subscribe", description: "Subscribe an email to the newsletter.", input_schema: subscribeSchema },
    ]);
    expect(body.messages).toStrictEqual([
      { role: "user", content: [{ type: "text", text: "find lamps and subscribe a@b.c" }] },
    ]);

    const answer = await collect(
      model,
      secondTurn(
        "Calling both tools.",
        ["toolu_a", "toolu_b"],
        ['{"query": "lamp", "limit": 3}', '{"email": "a@b.c"}'],
      ),
    );
    expect(answer).toStrictEqual([
      { type: "text-delta", text: "Found 2 lamps; " },
      { type: "text-delta", text: "you are subscribed." },
      { type: "finish", usage: { inputTokens: 25, outputTokens: 12 } },
    ]);
    const second = server.requests[1]!.body as Body;
    expect(second.messages.slice(1)).toStrictEqual([
      {
        role: "assistant",
        content: [
          { type: "text", text: "Calling both tools." },
          { type: "tool_use", id: "toolu_a", name: "search_catalog", input: { query: "lamp", limit: 3 } },
          { type: "tool_use", id: "toolu_b", name: "subscribe", input: { email: "a@b.c" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: searchResult },
          { type: "tool_result", tool_use_id: "toolu_b", content: subscribeResult },
        ],
      },
    ]);
  });

  it("moves a later system message into the system prompt", async () => {
    server = await startLoopbackModelServer([answerStep]);
    await collect(anthropicModel(server.baseUrl), [...firstTurn, { role: "system", content: "Be brief." }], []);
    const body = server.requests[0]!.body as Body;
    expect(body.system).toStrictEqual([
      { type: "text", text: "You are a shop assistant." },
      { type: "text", text: "Be brief." },
    ]);
    expect(body.messages).toHaveLength(1);
    expect(server.requests[0]!.headers["anthropic-beta"]).toBeUndefined();
  });

  it("turns a 401 into a clear error that does not contain the key", async () => {
    const errorBody = JSON.stringify({
      type: "error",
      error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` },
    });
    server = await startLoopbackModelServer([{ kind: "error", status: 401, body: errorBody }]);
    const error = await collect(anthropicModel(server.baseUrl), firstTurn).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(401);
    expect((error as Error).message).toBe("provider error: 401 Unauthorized: invalid x-api-key [secret]");
  });

  it("turns a 500 into a clear error", async () => {
    const errorBody = JSON.stringify({ type: "error", error: { type: "api_error", message: "Internal server error" } });
    server = await startLoopbackModelServer([{ kind: "error", status: 500, body: errorBody }]);
    await expect(collect(anthropicModel(server.baseUrl), firstTurn)).rejects.toThrow(
      "provider error: 500 Internal Server Error: Internal server error",
    );
  });

  it("throws an error event inside the stream (overloaded) as a provider error", async () => {
    server = await startLoopbackModelServer([
      {
        kind: "sse",
        events: [
          messageStart,
          anthropicEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
          textDelta(0, "Hel"),
          anthropicEvent({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
        ],
      },
    ]);
    await expect(collect(anthropicModel(server.baseUrl), firstTurn)).rejects.toThrow(
      "provider error: overloaded_error: Overloaded",
    );
  });

  it("names the missing secret (and sends nothing) when it is not provisioned", async () => {
    server = await startLoopbackModelServer([answerStep]);
    const model = anthropicModel(server.baseUrl, () => undefined);
    await expect(collect(model, firstTurn)).rejects.toThrow('model API key secret "anthropic_key" is not provisioned');
    expect(server.requests).toHaveLength(0);
  });
});
