import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, type Db } from "@/db/client";
import { startLoopbackBackend, type LoopbackBackend } from "../support/loopback-backend";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { openServerDb } from "../support/test-database";

/** `data:` payloads of a Chat Completions stream, in order ([DONE] kept as text). */
function chatSse(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      expect(block.startsWith("data: ")).toBe(true);
      const data = block.slice("data: ".length);
      return data === "[DONE]" ? data : JSON.parse(data);
    });
}

/** `event:`/`data:` pairs of a Responses stream (payloads are checked field by field with expect). */
function typedSse(text: string): { event: string; data: any }[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? "",
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null"),
    }));
}

const WEATHER_ANSWER = "It is 21 degrees in Oslo.";

describe("the OpenAI-compatible endpoints against the real server", () => {
  let server: TestServer;
  let backend: LoopbackBackend;
  let scripts: string;
  let client: OpenAI;

  const script = (name: string, steps: unknown) =>
    fs.writeFileSync(path.join(scripts, `${name}.json`), JSON.stringify(steps));
  const agent = (id: string, tools: string[]) =>
    server.api("PUT", `/v1/agents/${id}`, { model: { provider: "scripted", model: id }, tools_allow: tools });
  const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const weatherCalls = () => backend.requests.filter((r) => r.url.startsWith("/weather")).length;
  const subscribeCalls = () => backend.requests.filter((r) => r.url.startsWith("/subscribe")).length;
  const transcript = async (sessionId: string) => (await server.api("GET", `/v1/sessions/${sessionId}`)).body;

  beforeAll(async () => {
    backend = await startLoopbackBackend();
    scripts = tempDir("insika-openai-scripts-");
    server = await startServer({
      env: {
        INSIKA_SCRIPTED_DIR: scripts,
        INSIKA_EGRESS_ALLOW_HTTP: "1",
        INSIKA_EGRESS_HOSTS: `127.0.0.1:${backend.port}`,
      },
    });
    // No retries: a retried 5xx would run the turn again and hide what happened.
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.token, maxRetries: 0 });

    backend.route("GET", "/weather", (req) => ({
      body: { city: new URL(req.url, "http://x").searchParams.get("city"), celsius: 21 },
    }));
    backend.route("POST", "/subscribe", () => ({ body: { status: "SUBSCRIBED", message: "done!" } }));
    expect(
      (
        await server.api("PUT", "/v1/tools/oc_weather", {
          name: "oc_weather",
          description: "the weather in a city",
          parameters: "city | string | required | the city",
          request: { method: "GET", url: `${backend.url}/weather`, query: { city: "{{city}}" } },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await server.api("PUT", "/v1/tools/oc_subscribe", {
          name: "oc_subscribe",
          description: "subscribe to the newsletter",
          parameters: "email | string | required | who",
          request: { method: "POST", url: `${backend.url}/subscribe`, body: { email: "{{email}}" } },
          halt_when: {
            json_path: "tool_result.status",
            equals: ["SUBSCRIBED"],
            say: { json_path: "tool_result.message" },
          },
        })
      ).status,
    ).toBe(201);

    const weatherTurn = [
      [{ type: "tool-call", name: "oc_weather", args: { city: "Oslo" } }],
      [
        { type: "text", text: "It is 21" },
        { type: "text", text: " degrees in Oslo." },
        { type: "usage", usage: { inputTokens: 12, outputTokens: 6 } },
      ],
    ];
    script("oc-weather", {
      turns: { "Weather in Oslo?": weatherTurn, "And in Bergen?": [[{ type: "text", text: "Bergen is rainy." }]] },
      steps: [[{ type: "text", text: "I only know the weather." }]],
    });
    script("oc-subscribe", [
      [{ type: "tool-call", name: "oc_subscribe", args: { email: "a@example.com" } }],
      [{ type: "text", text: "SHOULD NEVER BE SAID" }],
    ]);
    script("oc-broken", [
      [
        { type: "text", text: "Let me " },
        { type: "error", message: "upstream exploded" },
      ],
    ]);
    script("oc-approve", {
      turns: {
        "subscribe me": [
          [
            { type: "text", text: "Subscribing you now." },
            { type: "tool-call", name: "oc_subscribe", args: { email: "a@example.com" } },
          ],
        ],
        thanks: [[{ type: "text", text: "You're welcome." }]],
      },
    });
    for (const [id, tools] of [
      ["oc-weather", ["oc_weather"]],
      ["oc-subscribe", ["oc_subscribe"]],
      ["oc-broken", []],
    ] as const) {
      expect((await agent(id, [...tools])).status).toBeLessThan(300);
    }
    const approve = await server.api("PUT", "/v1/agents/oc-approve", {
      model: { provider: "scripted", model: "oc-approve" },
      tools_allow: ["oc_subscribe"],
      approvals: ["oc_subscribe"],
    });
    expect(approve.status).toBeLessThan(300);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.close();
  });

  describe("POST /v1/chat/completions", () => {
    it("runs a turn with a tool call inside Insika and continues the session from the header, running only the new message", async () => {
      const before = weatherCalls();
      const { data, response } = await client.chat.completions
        .create({ model: "oc-weather", messages: [{ role: "user", content: "Weather in Oslo?" }] })
        .withResponse();
      expect(data).toMatchObject({
        object: "chat.completion",
        model: "oc-weather",
        id: expect.stringMatching(/^chatcmpl-turn_/),
      });
      expect(data.choices).toHaveLength(1);
      expect(data.choices[0]?.message).toMatchObject({ role: "assistant", content: WEATHER_ANSWER });
      expect(data.choices[0]?.message.tool_calls).toBeUndefined();
      expect(data.choices[0]?.finish_reason).toBe("stop");
      expect(data.usage).toEqual({ prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 });
      expect(weatherCalls()).toBe(before + 1);
      const sessionId = response.headers.get("x-insika-session") ?? "";
      expect(sessionId).toMatch(/^ses_/);

      // The trace shows the turn and its tool call, like any other turn.
      const trace = await server.api("GET", `/v1/sessions/${sessionId}/trace`);
      expect(trace.body.agent_id).toBe("oc-weather");
      expect(trace.body.turns).toHaveLength(1);
      expect(trace.body.turns[0]).toMatchObject({
        status: "completed",
        user_message: "Weather in Oslo?",
        content: WEATHER_ANSWER,
      });
      expect(trace.body.turns[0].calls).toEqual([
        expect.objectContaining({ tool: "oc_weather", ok: true, status: 200, arguments: { city: "Oslo" } }),
      ]);
      expect(trace.body.turns[0].events.map((e: { type: string }) => e.type)).toContain("tool_call");
      const listed = await server.api("GET", "/v1/sessions?agent_id=oc-weather");
      expect(JSON.stringify(listed.body)).toContain(sessionId);

      // The client replays the whole conversation: only the last user message is run.
      const follow = await client.chat.completions
        .create(
          {
            model: "oc-weather",
            messages: [
              { role: "system", content: "ignored: the agent has its own instructions" },
              { role: "user", content: "Weather in Oslo?" },
              { role: "assistant", content: WEATHER_ANSWER },
              { role: "user", content: [{ type: "text", text: "And in Bergen?" }] },
            ],
          },
          { headers: { "X-Insika-Session": sessionId } },
        )
        .withResponse();
      expect(follow.data.choices[0]?.message.content).toBe("Bergen is rainy.");
      expect(follow.data.usage).toBeUndefined();
      expect(follow.response.headers.get("x-insika-session")).toBe(sessionId);
      expect(weatherCalls()).toBe(before + 1);
      const t = await transcript(sessionId);
      expect(t.turns.map((turn: { user_message: string }) => turn.user_message)).toEqual([
        "Weather in Oslo?",
        "And in Bergen?",
      ]);
      expect(
        t.messages.filter((m: { role: string }) => m.role === "user").map((m: { content: string }) => m.content),
      ).toEqual(["Weather in Oslo?", "And in Bergen?"]);
    });

    it("streams deltas with the official client, usage last, and continues through metadata.session_id", async () => {
      const { data: stream, response } = await client.chat.completions
        .create({
          model: "oc-weather",
          messages: [{ role: "user", content: "Weather in Oslo?" }],
          stream: true,
          stream_options: { include_usage: true },
        })
        .withResponse();
      const sessionId = response.headers.get("x-insika-session") ?? "";
      expect(sessionId).toMatch(/^ses_/);
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.id === chunks[0]?.id)).toBe(true);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe(WEATHER_ANSWER);
      expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
      expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(["stop"]);
      expect(chunks.some((c) => c.choices.some((choice) => choice.delta.tool_calls))).toBe(false);
      expect(chunks.at(-1)).toMatchObject({
        choices: [],
        usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
      });

      const next = await client.chat.completions.create({
        model: "oc-weather",
        messages: [{ role: "user", content: "And in Bergen?" }],
        metadata: { session_id: sessionId },
        stream: true,
      });
      let text = "";
      for await (const chunk of next) text += chunk.choices[0]?.delta.content ?? "";
      expect(text).toBe("Bergen is rainy.");
      expect((await transcript(sessionId)).turns.map((turn: { status: string }) => turn.status)).toEqual([
        "completed",
        "completed",
      ]);
    });

    it("streams a halted turn as the exact chunk sequence: role, the say, stop, [DONE]", async () => {
      const res = await post("/v1/chat/completions", {
        model: "oc-subscribe",
        messages: [{ role: "user", content: "subscribe me" }],
        stream: true,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/event-stream");
      const sessionId = res.headers.get("x-insika-session") ?? "";
      expect(sessionId).toMatch(/^ses_/);
      const turnId = res.headers.get("x-insika-turn") ?? "";
      const events = chatSse(await res.text());
      const base = {
        id: `chatcmpl-${turnId}`,
        object: "chat.completion.chunk",
        created: expect.any(Number),
        model: "oc-subscribe",
      };
      expect(events).toEqual([
        {
          ...base,
          choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }],
        },
        { ...base, choices: [{ index: 0, delta: { content: "done!" }, logprobs: null, finish_reason: null }] },
        {
          ...base,
          choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }],
          insika: { session_id: sessionId, turn_id: turnId, status: "halted" },
        },
        "[DONE]",
      ]);
      const trace = await server.api("GET", `/v1/sessions/${sessionId}/trace`);
      expect(trace.body.turns[0]).toMatchObject({ id: turnId, status: "halted", content: "done!" });
      expect(trace.body.turns[0].calls[0]).toMatchObject({ tool: "oc_subscribe", ok: true, halted: true });
    });

    it("returns exactly what a halted turn published when not streaming", async () => {
      const completion = await client.chat.completions.create({
        model: "oc-subscribe",
        messages: [{ role: "user", content: "subscribe me" }],
      });
      expect(completion.choices[0]?.message.content).toBe("done!");
      expect(completion.choices[0]?.finish_reason).toBe("stop");
      expect(JSON.stringify(completion)).not.toContain("SHOULD NEVER");
    });

    it("reports a failed turn as an OpenAI error: 502 JSON, or an error event in the stream", async () => {
      const res = await post("/v1/chat/completions", {
        model: "oc-broken",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(res.status).toBe(502);
      expect(res.headers.get("x-insika-session")).toMatch(/^ses_/);
      expect(await res.json()).toEqual({
        error: { message: "model error: upstream exploded", type: "server_error", param: null, code: "turn_failed" },
      });

      const stream = await client.chat.completions.create({
        model: "oc-broken",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
      });
      let text = "";
      const failure = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      })().catch((error: unknown) => error);
      expect(text).toBe("Let me ");
      expect(failure).toBeInstanceOf(OpenAI.APIError);
      expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain("model error: upstream exploded");
    });

    it("answers errors in OpenAI's shape: unknown agent 404, bad requests 400, auth 401", async () => {
      const unknown = await client.chat.completions
        .create({ model: "no-such-agent", messages: [{ role: "user", content: "hi" }] })
        .catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
      expect(unknown).toMatchObject({ status: 404, type: "invalid_request_error", code: "model_not_found" });

      const raw = await post("/v1/chat/completions", {
        model: "no-such-agent",
        messages: [{ role: "user", content: "hi" }],
      });
      expect(raw.status).toBe(404);
      const body = await raw.json();
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error).toMatchObject({
        message: expect.stringContaining("no-such-agent"),
        type: "invalid_request_error",
        code: "model_not_found",
      });

      const noUser = await client.chat.completions
        .create({ model: "oc-weather", messages: [{ role: "system", content: "only a system message" }] })
        .catch((e: unknown) => e);
      expect(noUser).toBeInstanceOf(OpenAI.BadRequestError);
      expect(noUser).toMatchObject({ status: 400, type: "invalid_request_error", code: "missing_user_message" });

      const noModel = await post("/v1/chat/completions", { messages: [{ role: "user", content: "hi" }] });
      expect(noModel.status).toBe(400);
      expect((await noModel.json()).error).toMatchObject({
        type: "invalid_request_error",
        message: expect.stringContaining("model"),
      });
      const badJson = await post("/v1/chat/completions", "{not json");
      expect(badJson.status).toBe(400);
      expect((await badJson.json()).error.type).toBe("invalid_request_error");

      const unknownSession = await post(
        "/v1/chat/completions",
        { model: "oc-weather", messages: [{ role: "user", content: "hi" }] },
        { "x-insika-session": "ses_nope" },
      );
      expect(unknownSession.status).toBe(404);
      const other = (await server.api("POST", "/v1/sessions", { agent_id: "oc-subscribe" })).body.id as string;
      const mismatch = await post(
        "/v1/chat/completions",
        { model: "oc-weather", messages: [{ role: "user", content: "hi" }] },
        { "x-insika-session": other },
      );
      expect(mismatch.status).toBe(400);
      expect((await mismatch.json()).error).toMatchObject({
        code: "session_agent_mismatch",
        message: expect.stringContaining("oc-subscribe"),
      });

      const wrongKey = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "wrong", maxRetries: 0 });
      const denied = await wrongKey.chat.completions
        .create({ model: "oc-weather", messages: [{ role: "user", content: "hi" }] })
        .catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(denied).toMatchObject({ status: 401, type: "authentication_error" });
      const anonymous = await fetch(`${server.url}/v1/responses`, { method: "POST", body: "{}" });
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).error).toMatchObject({ type: "authentication_error", code: "unauthorized" });
    });
  });

  describe("POST /v1/responses", () => {
    it("runs a turn with a tool call and continues it through previous_response_id", async () => {
      const before = weatherCalls();
      const first = await client.responses.create({ model: "oc-weather", input: "Weather in Oslo?" });
      expect(first).toMatchObject({
        object: "response",
        status: "completed",
        model: "oc-weather",
        id: expect.stringMatching(/^resp_turn_/),
        error: null,
      });
      expect(first.output_text).toBe(WEATHER_ANSWER);
      expect(first.output).toHaveLength(1);
      expect(first.output[0]).toMatchObject({ type: "message", role: "assistant", status: "completed" });
      expect(first.usage).toMatchObject({ input_tokens: 12, output_tokens: 6, total_tokens: 18 });
      expect(weatherCalls()).toBe(before + 1);
      const sessionId = first.metadata?.insika_session_id ?? "";
      expect(sessionId).toMatch(/^ses_/);

      const second = await client.responses.create({
        model: "oc-weather",
        previous_response_id: first.id,
        input: [
          { role: "user", content: "Weather in Oslo?" },
          { role: "user", content: [{ type: "input_text", text: "And in Bergen?" }] },
        ],
      });
      expect(second.output_text).toBe("Bergen is rainy.");
      expect(second.previous_response_id).toBe(first.id);
      expect(second.metadata?.insika_session_id).toBe(sessionId);
      const trace = await server.api("GET", `/v1/sessions/${sessionId}/trace`);
      expect(trace.body.turns.map((t: { user_message: string }) => t.user_message)).toEqual([
        "Weather in Oslo?",
        "And in Bergen?",
      ]);
      expect(trace.body.turns[0].calls).toEqual([expect.objectContaining({ tool: "oc_weather", ok: true })]);
      expect(weatherCalls()).toBe(before + 1);
    });

    it("streams typed events that the official client's stream helper accumulates", async () => {
      const stream = client.responses.stream({ model: "oc-weather", input: "Weather in Oslo?" });
      const types: string[] = [];
      let deltas = "";
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === "response.output_text.delta") deltas += event.delta;
      }
      const final = await stream.finalResponse();
      expect(deltas).toBe(WEATHER_ANSWER);
      expect(final.output_text).toBe(WEATHER_ANSWER);
      expect(final.status).toBe("completed");
      expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 6, total_tokens: 18 });
      expect(types[0]).toBe("response.created");
      expect(types.at(-1)).toBe("response.completed");
      expect(types).not.toContain("response.function_call_arguments.delta");
    });

    it("streams a halted turn as the exact event sequence", async () => {
      const res = await post("/v1/responses", { model: "oc-subscribe", input: "subscribe me", stream: true });
      expect(res.status).toBe(200);
      const turnId = res.headers.get("x-insika-turn") ?? "";
      const events = typedSse(await res.text());
      expect(events.map((e) => e.event)).toEqual([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ]);
      expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
      expect(events.every((e) => e.data.type === e.event)).toBe(true);
      const item = { item_id: `msg_${turnId}`, output_index: 0, content_index: 0 };
      expect(events[0]?.data.response).toMatchObject({ id: `resp_${turnId}`, status: "in_progress", output: [] });
      expect(events[4]?.data).toMatchObject({ ...item, delta: "done!" });
      expect(events[5]?.data).toMatchObject({ ...item, text: "done!" });
      const done = events[8]?.data.response;
      expect(done).toMatchObject({
        id: `resp_${turnId}`,
        object: "response",
        status: "completed",
        model: "oc-subscribe",
        metadata: { insika_status: "halted", insika_turn_id: turnId },
      });
      expect(done.output).toEqual([
        {
          id: `msg_${turnId}`,
          type: "message",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "done!", annotations: [] }],
        },
      ]);
    });

    it("reports a failed turn as response.failed when streaming and 502 otherwise", async () => {
      const res = await post("/v1/responses", { model: "oc-broken", input: "hi", stream: true });
      const events = typedSse(await res.text());
      expect(events.at(-1)).toMatchObject({
        event: "response.failed",
        data: {
          response: { status: "failed", error: { code: "server_error", message: "model error: upstream exploded" } },
        },
      });
      const plain = await client.responses.create({ model: "oc-broken", input: "hi" }).catch((e: unknown) => e);
      expect(plain).toBeInstanceOf(OpenAI.InternalServerError);
      expect(plain).toMatchObject({ status: 502, type: "server_error", code: "turn_failed" });
    });

    it("answers errors in OpenAI's shape: unknown agent, unknown previous response, no user input", async () => {
      const unknown = await client.responses.create({ model: "no-such-agent", input: "hi" }).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
      expect(unknown).toMatchObject({ status: 404, code: "model_not_found", type: "invalid_request_error" });
      const previous = await client.responses
        .create({ model: "oc-weather", input: "hi", previous_response_id: "resp_turn_nope" })
        .catch((e: unknown) => e);
      expect(previous).toBeInstanceOf(OpenAI.NotFoundError);
      expect(previous).toMatchObject({
        status: 404,
        code: "previous_response_not_found",
        message: expect.stringContaining("previous response not found"),
      });
      const noUser = await post("/v1/responses", {
        model: "oc-weather",
        input: [{ role: "assistant", content: "hello" }],
      });
      expect(noUser.status).toBe(400);
      expect((await noUser.json()).error).toMatchObject({
        type: "invalid_request_error",
        code: "missing_user_message",
      });
    });
  });

  describe("text holding U+0000 (which PostgreSQL cannot store)", () => {
    let db: Db;
    beforeAll(() => {
      db = openServerDb(server);
    });
    afterAll(async () => {
      if (db) await closeDb(db);
    });
    const count = async (table: "sessions" | "turns") =>
      Number((await db.execute<{ n: unknown }>(sql`select count(*) as n from ${sql.raw(table)}`))[0]?.n);
    const rows = async () => ({ sessions: await count("sessions"), turns: await count("turns") });
    const user = (content: unknown) => [{ role: "user", content }];

    it("is refused with 400 invalid_request_error naming it, on both dialects, before a session or a turn is written", async () => {
      const existing = (await server.api("POST", "/v1/sessions", { agent_id: "oc-weather" })).body.id as string;
      const before = await rows();
      const cases: Array<[string, Record<string, unknown>, string | null, string]> = [
        ["/v1/chat/completions", { model: "de\u0000mo", messages: user("hi") }, "model", "model"],
        [
          "/v1/chat/completions",
          { model: "oc-weather", metadata: { session_id: "a\u0000" }, messages: user("hi") },
          null,
          "the session id",
        ],
        ["/v1/chat/completions", { model: "oc-weather", messages: user("hi\u0000") }, "messages", "the user message"],
        [
          "/v1/chat/completions",
          { model: "oc-weather", stream: true, messages: user([{ type: "text", text: "hi\u0000" }]) },
          "messages",
          "the user message",
        ],
        [
          "/v1/chat/completions",
          { model: "oc-weather", metadata: { session_id: existing }, messages: user("hi\u0000") },
          "messages",
          "the user message",
        ],
        ["/v1/responses", { model: "de\u0000mo", input: "hi" }, "model", "model"],
        [
          "/v1/responses",
          { model: "oc-weather", input: "hi", previous_response_id: "resp_turn_\u0000" },
          "previous_response_id",
          "previous_response_id",
        ],
        ["/v1/responses", { model: "oc-weather", input: "hi\u0000" }, "input", "input"],
        ["/v1/responses", { model: "oc-weather", stream: true, input: "hi\u0000" }, "input", "input"],
        [
          "/v1/responses",
          { model: "oc-weather", input: [{ role: "user", content: [{ type: "input_text", text: "hi\u0000" }] }] },
          "input",
          "the user message",
        ],
      ];
      for (const [pathname, body, param, what] of cases) {
        const res = await post(pathname, body);
        const label = `${pathname} ${JSON.stringify(body)}`;
        expect(res.status, label).toBe(400);
        expect(res.headers.get("content-type"), label).toMatch(/^application\/json/);
        expect(res.headers.get("x-insika-session"), label).toBeNull();
        expect(await res.json(), label).toEqual({
          error: {
            message: expect.stringMatching(new RegExp(`^${what}.* holds a NUL character \\(U\\+0000\\)$`)),
            type: "invalid_request_error",
            param,
            code: "nul_character",
          },
        });
      }
      // The official client raises its usual typed error.
      const refused = await client.chat.completions
        .create({ model: "oc-weather", messages: [{ role: "user", content: "hi\u0000" }] })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect(refused).toMatchObject({ status: 400, type: "invalid_request_error", code: "nul_character" });
      expect(await rows()).toEqual(before);
    });
  });

  describe("a turn waiting for an approval", () => {
    it("ends the chat answer with a status line, and the session goes on once the approval is decided", async () => {
      const before = subscribeCalls();
      const { data, response } = await client.chat.completions
        .create({ model: "oc-approve", messages: [{ role: "user", content: "subscribe me" }] })
        .withResponse();
      const sessionId = response.headers.get("x-insika-session") ?? "";
      const insika = (
        data as unknown as {
          insika: { status: string; session_id: string; approvals: { approval_id: string; tool: string }[] };
        }
      ).insika;
      expect(insika).toMatchObject({
        status: "waiting",
        session_id: sessionId,
        approvals: [{ tool: "oc_subscribe", approval_id: expect.any(String) }],
      });
      const approvalId = insika.approvals[0]?.approval_id ?? "";
      expect(data.choices[0]?.message.content).toBe(`[waiting for approval: oc_subscribe (approval ${approvalId})]`);
      expect(data.choices[0]?.finish_reason).toBe("stop");
      expect(subscribeCalls()).toBe(before);
      const pending = await server.api("GET", "/v1/approvals?status=pending");
      expect(pending.body.approvals.map((a: { id: string }) => a.id)).toContain(approvalId);

      // The session has a turn in progress: another message is refused, in OpenAI's shape.
      const busy = await post(
        "/v1/chat/completions",
        { model: "oc-approve", messages: [{ role: "user", content: "thanks" }] },
        { "x-insika-session": sessionId },
      );
      expect(busy.status).toBe(409);
      expect((await busy.json()).error).toMatchObject({ type: "invalid_request_error", code: "conflict" });

      expect((await server.api("POST", `/v1/approvals/${approvalId}`, { decision: "approved" })).status).toBe(200);
      const deadline = Date.now() + 15_000;
      while ((await transcript(sessionId)).turns[0]?.status !== "halted" && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect((await transcript(sessionId)).turns[0]).toMatchObject({
        status: "halted",
        content: "Subscribing you now.",
      });
      expect(subscribeCalls()).toBe(before + 1);
      const next = await client.chat.completions.create(
        { model: "oc-approve", messages: [{ role: "user", content: "thanks" }] },
        { headers: { "X-Insika-Session": sessionId } },
      );
      expect(next.choices[0]?.message.content).toBe("You're welcome.");
    });

    it("streams a waiting turn as response.incomplete with reason approval_pending", async () => {
      const res = await post("/v1/responses", { model: "oc-approve", input: "subscribe me", stream: true });
      const events = typedSse(await res.text());
      expect(events.map((e) => e.event)).toEqual([
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.incomplete",
      ]);
      const note = events[5]?.data.delta as string;
      expect(events[4]?.data.delta).toBe("Subscribing you now.");
      expect(note).toMatch(/^\n\n\[waiting for approval: oc_subscribe \(approval [^)]+\)\]$/);
      expect(events[6]?.data.text).toBe(`Subscribing you now.${note}`);
      expect(events.at(-1)?.data.response).toMatchObject({
        status: "incomplete",
        incomplete_details: { reason: "approval_pending" },
        error: null,
        metadata: { insika_status: "waiting" },
        output: [{ type: "message", status: "incomplete" }],
      });
    });
  });
});
