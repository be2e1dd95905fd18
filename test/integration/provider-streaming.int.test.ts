// How a turn asks its provider, against the real server and a loopback model server: a client
// that streams the turn (SSE, `stream: true`) gets the provider's stream; a client that waits for
// one answer (JSON, `stream: false`), and a subagent's turn, get one non-streaming call per step,
// with the same events.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asksForStream,
  chatChunk,
  chatCompletion,
  startLoopbackModelServer,
  type LoopbackModelServer,
  type ScriptedResponse,
} from "../support/loopback-model-server";
import { startServer, type TestServer } from "../support/server";
import { tempDir } from "../support/temp-dir";
import { ONE_CALL_TURN_EVENTS } from "@/lib/engine/test-support";

/** SSE events of a response body, as {event, data} pairs (`data` parsed unless it is [DONE]). */
function parseSse(text: string): { event: string; data: any }[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
      return { event: /^event: (.*)$/m.exec(block)?.[1] ?? "", data: data === "[DONE]" ? data : JSON.parse(data) };
    });
}

/** A streamed Chat Completions answer: each piece of text as its own chunk. */
const streamedAnswer = (...pieces: string[]): ScriptedResponse => ({
  kind: "sse",
  events: [
    ...pieces.map((content, i) => ({ data: chatChunk(i === 0 ? { role: "assistant", content } : { content }) })),
    { data: chatChunk({}, "stop") },
    { data: "[DONE]" },
  ],
});

describe("a turn asks its provider to stream only when its client streams", () => {
  let server: TestServer;
  let scripts: string;
  const models: LoopbackModelServer[] = [];

  /** A new loopback model server with `script`, and an agent `id` on it (offered `calculate`). */
  const modelAgent = async (id: string, script: ScriptedResponse[]) => {
    const model = await startLoopbackModelServer(script);
    models.push(model);
    const put = await server.api("PUT", `/v1/agents/${id}`, {
      model: { provider: "openai-compatible", model: "m", base_url: `${model.baseUrl}/v1` },
      tools_allow: ["calculate"],
    });
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    return model;
  };
  const session = async (agentId: string) =>
    (await server.api("POST", "/v1/sessions", { agent_id: agentId })).body.id as string;
  const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    scripts = tempDir("insika-streaming-scripts-");
    server = await startServer({ env: { INSIKA_PROVIDER_HOSTS: "127.0.0.1", INSIKA_SCRIPTED_DIR: scripts } });
  });
  afterAll(async () => {
    await server?.stop();
    await Promise.all(models.map((m) => m.close()));
  });

  it("a JSON turn: one non-streaming call per step, the tool loop and the events as ever, each step's text in one delta", async () => {
    const model = await modelAgent("json_turn", [
      {
        kind: "json",
        body: chatCompletion({
          text: "Let me work it out.",
          toolCalls: [{ id: "call_1", name: "calculate", arguments: '{"a":6,"b":7,"operation":"multiply"}' }],
          usage: { prompt: 20, completion: 8 },
        }),
      },
      { kind: "json", body: chatCompletion({ text: "6 times 7 is 42.", usage: { prompt: 40, completion: 6 } }) },
    ]);
    const id = await session("json_turn");
    const result = await server.api("POST", `/v1/sessions/${id}/turns`, { message: "what is 6 x 7?" });
    expect(result.body).toMatchObject({ status: "completed", content: "6 times 7 is 42." });

    expect(model.requests.map(asksForStream)).toEqual([false, false]);
    const second = model.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", content: '{"result":42}' });

    const trace = await server.api("GET", `/v1/sessions/${id}/trace`);
    const turn = trace.body.turns[0];
    expect(turn.events.map((e: { type: string }) => e.type)).toEqual([...ONE_CALL_TURN_EVENTS]);
    expect(turn.events.filter((e: { type: string }) => e.type === "text_delta").map((e: any) => e.text)).toEqual([
      "Let me work it out.",
      "6 times 7 is 42.",
    ]);
    expect(turn.usage).toEqual({ inputTokens: 60, outputTokens: 14 });
    expect(turn.calls).toEqual([expect.objectContaining({ tool: "calculate", ok: true })]);

    // A follower of the turn reads the same events from the database.
    const followed = await fetch(`${server.url}/v1/turns/${result.body.turn_id}/events`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(parseSse(await followed.text()).map((e) => e.event)).toEqual(
      turn.events.map((e: { type: string }) => e.type),
    );
  });

  it("an SSE turn (Accept: text/event-stream) still asks the provider to stream and streams its text deltas", async () => {
    const model = await modelAgent("sse_turn", [streamedAnswer("Hel", "lo ", "there.")]);
    const id = await session("sse_turn");
    const res = await post(`/v1/sessions/${id}/turns`, { message: "hi" }, { accept: "text/event-stream" });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      "turn_started",
      "text_delta",
      "text_delta",
      "text_delta",
      "turn_completed",
    ]);
    expect(events.filter((e) => e.event === "text_delta").map((e) => e.data.text)).toEqual(["Hel", "lo ", "there."]);
    expect(events.at(-1)?.data.content).toBe("Hello there.");
    expect(model.requests.map(asksForStream)).toEqual([true]);
  });

  it("the OpenAI-compatible endpoints ask the provider to stream for `stream: true` only", async () => {
    const model = await modelAgent("compat", [
      { kind: "json", body: chatCompletion({ text: "whole answer" }) },
      streamedAnswer("streamed ", "answer"),
      { kind: "json", body: chatCompletion({ text: "whole response" }) },
      streamedAnswer("streamed ", "response"),
    ]);
    const messages = [{ role: "user", content: "a" }];
    const whole = await post("/v1/chat/completions", { model: "compat", messages });
    expect(whole.status).toBe(200);
    expect((await whole.json()).choices[0].message.content).toBe("whole answer");
    const streamed = await post("/v1/chat/completions", { model: "compat", messages, stream: true });
    const chunks = parseSse(await streamed.text()).filter((e) => e.data !== "[DONE]");
    expect(chunks.map((e) => e.data.choices[0]?.delta.content ?? "").join("")).toBe("streamed answer");

    const response = await post("/v1/responses", { model: "compat", input: "b" });
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain("whole response");
    const events = parseSse(await (await post("/v1/responses", { model: "compat", input: "c", stream: true })).text());
    const deltas = events.filter((e) => e.event === "response.output_text.delta").map((e) => e.data.delta);
    expect(deltas.join("")).toBe("streamed response");

    expect(model.requests.map(asksForStream)).toEqual([false, true, false, true]);
  });

  it("a subagent's turn asks without streaming, even under a streamed parent turn", async () => {
    const child = await modelAgent("child_llm", [{ kind: "json", body: chatCompletion({ text: "child says hi" }) }]);
    fs.writeFileSync(
      path.join(scripts, "parent.json"),
      JSON.stringify([
        [{ type: "tool-call", name: "spawn_subagent", args: { agent: "child_llm", message: "say hi" } }],
        [{ type: "text", text: "The child answered." }],
      ]),
    );
    const put = await server.api("PUT", "/v1/agents/parent", {
      model: { provider: "scripted", model: "parent" },
      tools_allow: [],
      subagents: ["child_llm"],
    });
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    const id = await session("parent");
    const res = await post(`/v1/sessions/${id}/turns`, { message: "ask the child" }, { accept: "text/event-stream" });
    const events = parseSse(await res.text());
    expect(events.at(-1)).toMatchObject({ event: "turn_completed", data: { content: "The child answered." } });
    const result = events.find((e) => e.event === "tool_result")?.data;
    expect(result).toMatchObject({ tool: "spawn_subagent", ok: true });
    expect(JSON.stringify(result.result)).toContain("child says hi");
    expect(child.requests.map(asksForStream)).toEqual([false]);
  });
});
