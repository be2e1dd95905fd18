import { describe, expect, it } from "vitest";
import type { EngineEvent } from "@/lib/engine/ports";
import { answerListener, type AnswerSink, type TurnAnswer } from "./turn-answer";

function run(events: EngineEvent[]) {
  const texts: string[] = [];
  let started = "";
  let answer: TurnAnswer | undefined;
  const sink: AnswerSink = { start: (id) => (started = id), text: (t) => texts.push(t), end: (a) => (answer = a) };
  const listener = answerListener(sink);
  events.forEach((event, i) => listener({ ...event, seq: i + 1, at: 0 }));
  return { started, texts, answer };
}

const call = (id: string): EngineEvent => ({ type: "tool_call", call_id: id, tool: "subscribe", arguments: {} });
const result = (id: string, halted = false): EngineEvent => ({
  type: "tool_result",
  call_id: id,
  tool: "subscribe",
  ok: true,
  duration_ms: 1,
  queued_ms: 0,
  halted,
});

describe("answerListener", () => {
  it("streams text and ends a completed turn with its content and usage", () => {
    const out = run([
      { type: "turn_started", turn_id: "turn_1" },
      { type: "text_delta", text: "Hel" },
      { type: "text_delta", text: "lo" },
      { type: "turn_completed", content: "Hello", usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
    expect(out.started).toBe("turn_1");
    expect(out.texts).toEqual(["Hel", "lo"]);
    expect(out.answer).toEqual({
      status: "completed",
      content: "Hello",
      approvals: [],
      usage: { inputTokens: 3, outputTokens: 2 },
    });
  });

  it("streams a halted turn's say once, since it was never a text delta", () => {
    const out = run([
      { type: "turn_started", turn_id: "t" },
      call("c1"),
      result("c1", true),
      { type: "turn_halted", content: "done!" },
    ]);
    expect(out.texts).toEqual(["done!"]);
    expect(out.answer).toMatchObject({ status: "halted", content: "done!" });
  });

  it("does not repeat a halted turn's lead-in, which was streamed, even after earlier steps' text", () => {
    const out = run([
      { type: "turn_started", turn_id: "t" },
      { type: "text_delta", text: "Looking. " },
      call("c0"),
      result("c0"),
      { type: "text_delta", text: "Subscribing you now." },
      call("c1"),
      result("c1", true),
      { type: "turn_halted", content: "Subscribing you now." },
    ]);
    expect(out.texts).toEqual(["Looking. ", "Subscribing you now."]);
    expect(out.answer).toMatchObject({ status: "halted", content: "Subscribing you now." });
  });

  it("adds nothing for a halt that published nothing", () => {
    const out = run([
      { type: "turn_started", turn_id: "t" },
      call("c1"),
      result("c1", true),
      { type: "turn_halted", content: "" },
    ]);
    expect(out.texts).toEqual([]);
    expect(out.answer).toMatchObject({ status: "halted", content: "" });
  });

  it("ends a waiting turn with a status line naming the pending approval only", () => {
    const out = run([
      { type: "turn_started", turn_id: "t" },
      { type: "text_delta", text: "I need a yes first." },
      { type: "approval_requested", approval_id: "apr_1", call_id: "c0", tool: "lookup", arguments: {} },
      { type: "approval_resolved", approval_id: "apr_1", call_id: "c0", decision: "approved" },
      { type: "approval_requested", approval_id: "apr_2", call_id: "c1", tool: "subscribe", arguments: {} },
      { type: "turn_waiting" },
    ]);
    const note = "[waiting for approval: subscribe (approval apr_2)]";
    expect(out.texts).toEqual(["I need a yes first.", `\n\n${note}`]);
    expect(out.answer).toEqual({
      status: "waiting",
      content: note,
      approvals: [{ approval_id: "apr_2", tool: "subscribe" }],
    });
  });

  it("ends a failed turn with its error and never throws when the sink does", () => {
    const out = run([
      { type: "turn_started", turn_id: "t" },
      { type: "turn_failed", error: "model error: boom", code: "model_error", fault: "model" },
    ]);
    expect(out.answer).toEqual({
      status: "failed",
      content: "",
      error: "model error: boom",
      code: "model_error",
      fault: "model",
      approvals: [],
    });
    const listener = answerListener({
      start: () => {
        throw new Error("client gone");
      },
      text: () => undefined,
      end: () => undefined,
    });
    expect(() => listener({ type: "turn_started", turn_id: "t", seq: 1, at: 0 })).not.toThrow();
  });
});
