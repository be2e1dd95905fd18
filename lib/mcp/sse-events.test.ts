import { describe, expect, it } from "vitest";
import { parseSse } from "./sse-events";
import { watchForAnswer } from "./watch-for-answer";

describe("parseSse", () => {
  it("keeps the last event id across events, the last valid retry, and skips empty and comment events", () => {
    const s = parseSse(
      ': hello\r\nid: a\r\nretry: 500\r\ndata: \r\n\r\nevent: message\ndata: {"x":1}\n\nid: b\nretry: soon\ndata: one\ndata: two\n\n',
    );
    expect(s.events).toEqual([
      { data: '{"x":1}', id: "a" },
      { data: "one\ntwo", id: "b" },
    ]);
    expect(s.lastEventId).toBe("b");
    expect(s.retryMs).toBe(500);
  });

  it("ignores an id holding NUL, resets on an empty id, and takes an unterminated last event", () => {
    expect(parseSse("id: a\n\nid: x\0y\n\n").lastEventId).toBe("a");
    expect(parseSse("id: a\n\nid\n\n").lastEventId).toBeNull();
    expect(parseSse("data: tail").events).toEqual([{ data: "tail", id: null }]);
  });

  it("is linear on hostile input (a megabyte of one line, of blank lines)", () => {
    expect(parseSse(`data: ${"x".repeat(1 << 20)}`).events[0]?.data.length).toBe(1 << 20);
    expect(parseSse("\n".repeat(1 << 20)).events).toEqual([]);
  });
});

describe("watchForAnswer", () => {
  const sse = { "content-type": "text/event-stream" };
  const answer = Buffer.from(`id: 2\ndata: {"jsonrpc":"2.0","id":7,"result":{"text":"é"}}\r\n\r\n`);

  it("says the answer is in once its whole event arrived, however the chunks split it", () => {
    for (let cut = 1; cut < answer.length; cut += 1) {
      const watch = watchForAnswer(7);
      expect(watch(Buffer.from("id: 1\ndata: \n\n"), sse)).toBe(false);
      // The final CR ends the blank line: the LF of its CRLF is not waited for.
      expect(watch(answer.subarray(0, cut), sse)).toBe(cut === answer.length - 1);
      expect(watch(answer.subarray(cut), sse)).toBe(true);
    }
  });

  it("ignores other ids, notifications and non-SSE bodies", () => {
    const watch = watchForAnswer(7);
    expect(
      watch(
        Buffer.from(
          `data: {"jsonrpc":"2.0","id":8,"result":{}}\n\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n`,
        ),
        sse,
      ),
    ).toBe(false);
    expect(
      watchForAnswer(7)(Buffer.from(`{"jsonrpc":"2.0","id":7,"result":{}}\n\n`), {
        "content-type": "application/json",
      }),
    ).toBe(false);
  });
});
