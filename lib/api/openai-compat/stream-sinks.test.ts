import { describe, expect, it } from "vitest";
import type { EngineEvent } from "@/lib/engine/ports";
import { chatStreamSink } from "./chat-stream";
import { responseStreamSink } from "./responses-stream";
import { sseStream } from "@/lib/api/sse";
import { answerListener, type AnswerSink } from "./turn-answer";

async function play(
  makeSink: (sse: ReturnType<typeof sseStream>) => AnswerSink,
  events: EngineEvent[],
): Promise<string> {
  const sse = sseStream();
  const listener = answerListener(makeSink(sse));
  events.forEach((event, i) => listener({ ...event, seq: i + 1, at: 0 }));
  return sse.response().text();
}

const dataLines = (body: string) =>
  body
    .split("\n\n")
    .filter(Boolean)
    .map((block) => block.replace(/^data: /, ""));
const typedEvents = (body: string) =>
  body
    .split("\n\n")
    .filter(Boolean)
    .map((block) => {
      const [eventLine = "", dataLine = ""] = block.split("\n");
      return { event: eventLine.replace(/^event: /, ""), data: JSON.parse(dataLine.replace(/^data: /, "")) };
    });

const chat =
  (includeUsage = false) =>
  (sse: ReturnType<typeof sseStream>) =>
    chatStreamSink(sse, { sessionId: "ses_1", model: "agent", created: 1, includeUsage });
const responses = (sse: ReturnType<typeof sseStream>) =>
  responseStreamSink(sse, {
    meta: { createdAt: 1, model: "agent", previousResponseId: null },
    metadata: (turnId, status) => ({ insika_turn_id: turnId, insika_status: status }),
  });

const waiting: EngineEvent[] = [
  { type: "turn_started", turn_id: "turn_w" },
  { type: "approval_requested", approval_id: "apr_9", call_id: "c", tool: "refund", arguments: {} },
  { type: "turn_waiting" },
];

describe("chat completion chunks", () => {
  it("ends a waiting turn with the status line, finish_reason stop, insika.status and [DONE]", async () => {
    const lines = dataLines(await play(chat(), waiting));
    expect(lines.at(-1)).toBe("[DONE]");
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l));
    expect(chunks.map((c) => c.choices[0].delta)).toEqual([
      { role: "assistant", content: "" },
      { content: "[waiting for approval: refund (approval apr_9)]" },
      {},
    ]);
    expect(chunks.every((c) => c.id === "chatcmpl-turn_w" && c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      choices: [{ finish_reason: "stop" }],
      insika: { session_id: "ses_1", turn_id: "turn_w", status: "waiting" },
    });
  });

  it("sends a failed turn as one error object and no [DONE]", async () => {
    const lines = dataLines(
      await play(chat(), [
        { type: "turn_started", turn_id: "t" },
        { type: "text_delta", text: "hm" },
        { type: "turn_failed", error: "model error: 503", code: "model_error", fault: "model" },
      ]),
    );
    expect(lines).not.toContain("[DONE]");
    expect(JSON.parse(lines.at(-1) ?? "")).toEqual({
      error: { message: "model error: 503", type: "server_error", param: null, code: "turn_failed" },
    });
  });

  it("puts usage in a trailing chunk with no choices when include_usage asks, else on the last chunk", async () => {
    const done: EngineEvent[] = [
      { type: "turn_started", turn_id: "t" },
      { type: "text_delta", text: "hi" },
      { type: "turn_completed", content: "hi", usage: { inputTokens: 5, outputTokens: 1 } },
    ];
    const usage = { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 };
    const asked = dataLines(await play(chat(true), done))
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    expect(asked.at(-1)).toEqual(expect.objectContaining({ choices: [], usage }));
    expect(asked.at(-2).usage).toBeUndefined();
    const plain = dataLines(await play(chat(false), done))
      .slice(0, -1)
      .map((l) => JSON.parse(l));
    expect(plain.at(-1)).toMatchObject({ choices: [{ finish_reason: "stop" }], usage });
  });
});

describe("responses events", () => {
  it("ends a waiting turn as response.incomplete (approval_pending) with the status line", async () => {
    const events = typedEvents(await play(responses, waiting));
    expect(events.map((e) => e.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.incomplete",
    ]);
    expect(events.map((e) => e.data.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    const last = events.at(-1)?.data.response;
    expect(last).toMatchObject({
      id: "resp_turn_w",
      status: "incomplete",
      incomplete_details: { reason: "approval_pending" },
      metadata: { insika_status: "waiting" },
    });
    expect(last.output).toEqual([
      {
        id: "msg_turn_w",
        type: "message",
        status: "incomplete",
        role: "assistant",
        content: [{ type: "output_text", text: "[waiting for approval: refund (approval apr_9)]", annotations: [] }],
      },
    ]);
  });

  it("ends a failed turn with response.failed carrying the error, and no message when none was started", async () => {
    const events = typedEvents(
      await play(responses, [
        { type: "turn_started", turn_id: "t" },
        { type: "turn_failed", error: "tool limit reached", code: "tool_call_limit", fault: "limit" },
      ]),
    );
    expect(events.map((e) => e.event)).toEqual(["response.created", "response.in_progress", "response.failed"]);
    expect(events.at(-1)?.data.response).toMatchObject({
      status: "failed",
      error: { code: "server_error", message: "tool limit reached" },
      output: [],
    });
  });

  it("gives an empty message for a turn that completed with no text", async () => {
    const events = typedEvents(
      await play(responses, [
        { type: "turn_started", turn_id: "t" },
        { type: "turn_halted", content: "" },
      ]),
    );
    expect(events.map((e) => e.event)).not.toContain("response.output_text.delta");
    expect(events.at(-1)?.data.response).toMatchObject({
      status: "completed",
      output: [{ content: [{ type: "output_text", text: "" }] }],
      usage: null,
    });
  });
});
