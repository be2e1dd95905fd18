/**
 * What each side of the http-turn bench must answer for a turn to count (bench/http-turn.ts):
 * anything else fails the bench, so no side can win by answering less.
 */
import { EXPECTED_ANSWER } from "./model-server-process";

export type Side = "json" | "jsonNext" | "sse" | "generate" | "stream";
export const SIDES: Side[] = ["json", "jsonNext", "sse", "generate", "stream"];
export const LABEL: Record<Side, string> = {
  json: "Insika, JSON turn endpoint",
  jsonNext: "Insika, JSON via Next router",
  sse: "Insika, SSE turn endpoint",
  generate: "AI SDK server, generateText",
  stream: "AI SDK server, streamText",
};

/** The events of an SSE body: `event:` (when present) and `data:` of each block. */
function sseEvents(text: string): Array<{ event: string | null; data: string }> {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      let event: string | null = null;
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      return { event, data: data.join("\n") };
    });
}

class TurnCheckError extends Error {}

function fail(side: Side, why: string, answer: { status: number; text: string }): never {
  throw new TurnCheckError(`${LABEL[side]}: ${why} (HTTP ${answer.status}: ${answer.text.slice(0, 400)})`);
}

/** Checks an Insika JSON answer: a completed turn with the answer after one tool result. */
export function checkJson(answer: { status: number; text: string }, side: "json" | "jsonNext" = "json"): void {
  if (answer.status !== 200) fail(side, "not 200", answer);
  const body = JSON.parse(answer.text) as { status?: string; content?: string };
  if (body.status !== "completed" || body.content !== EXPECTED_ANSWER)
    fail(side, `expected a completed turn answering ${JSON.stringify(EXPECTED_ANSWER)}`, answer);
}

/** Checks an Insika SSE answer: one tool_call, one ok tool_result, then turn_completed with the answer. */
export function checkSse(answer: { status: number; type: string; text: string }): void {
  if (answer.status !== 200 || !answer.type.startsWith("text/event-stream")) fail("sse", "not an SSE answer", answer);
  const events = sseEvents(answer.text);
  const last = events[events.length - 1];
  const calls = events.filter((e) => e.event === "tool_call").length;
  const results = events.filter((e) => e.event === "tool_result" && (JSON.parse(e.data) as { ok?: boolean }).ok);
  if (last?.event !== "turn_completed" || (JSON.parse(last.data) as { content?: string }).content !== EXPECTED_ANSWER)
    fail("sse", `expected turn_completed answering ${JSON.stringify(EXPECTED_ANSWER)} last`, answer);
  if (calls !== 1 || results.length !== 1) fail("sse", `expected 1 tool_call and 1 ok tool_result`, answer);
}

/** Checks the generateText route's JSON: the answer, after one tool call and its result. */
export function checkGenerate(answer: { status: number; text: string }): void {
  if (answer.status !== 200) fail("generate", "not 200", answer);
  const body = JSON.parse(answer.text) as { text?: string; tool_calls?: number; tool_results?: number };
  if (body.text !== EXPECTED_ANSWER || body.tool_calls !== 1 || body.tool_results !== 1)
    fail("generate", `expected ${JSON.stringify(EXPECTED_ANSWER)} after 1 tool call`, answer);
}

/** Checks the streamText route's UI message stream: one tool output, the answer's text deltas, finish, [DONE]. */
export function checkStream(answer: { status: number; type: string; text: string }): void {
  if (answer.status !== 200 || !answer.type.startsWith("text/event-stream"))
    fail("stream", "not an SSE answer", answer);
  const events = sseEvents(answer.text);
  if (events[events.length - 1]?.data !== "[DONE]") fail("stream", "the stream did not end with [DONE]", answer);
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as { type: string; delta?: string });
  const text = chunks.map((c) => (c.type === "text-delta" ? (c.delta ?? "") : "")).join("");
  const outputs = chunks.filter((c) => c.type === "tool-output-available").length;
  if (text !== EXPECTED_ANSWER || outputs !== 1 || !chunks.some((c) => c.type === "finish"))
    fail("stream", `expected ${JSON.stringify(EXPECTED_ANSWER)} after 1 tool output, then finish`, answer);
}
