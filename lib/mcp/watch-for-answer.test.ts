import { describe, expect, it } from "vitest";
import { watchForAnswer } from "./watch-for-answer";

const SSE = { "content-type": "text/event-stream" };
const ANSWER = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "é" }] } });

/** Feeds `text` in pieces of `size` bytes; the index of the piece after which the watcher said stop, or -1. */
function feed(text: string, size: number, headers: Record<string, string> = SSE): number {
  const stop = watchForAnswer(7);
  const bytes = Buffer.from(text, "utf8");
  for (let i = 0, n = 0; i < bytes.length; i += size, n += 1) if (stop(bytes.subarray(i, i + size), headers)) return n;
  return -1;
}

describe("watchForAnswer", () => {
  it("stops once the event holding the answer is complete, however the bytes are split", () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const text = `: primed${eol}${eol}data: {"jsonrpc":"2.0","method":"notifications/progress"}${eol}${eol}data: ${ANSWER}${eol}${eol}`;
      for (const size of [1, 2, 3, 7, 64, text.length]) {
        // The answer event is complete with its blank line, whose CR already ends it (an LF after it is its CRLF).
        const end = Buffer.byteLength(text) - (eol === "\r\n" ? 2 : 1);
        expect({ eol, size, stoppedAt: feed(text, size) }).toEqual({ eol, size, stoppedAt: Math.floor(end / size) });
      }
    }
  });

  it("ignores answers to other ids and bodies that are not SSE", () => {
    expect(feed(`data: ${ANSWER.replace('"id":7', '"id":8')}\n\n`, 5)).toBe(-1);
    expect(feed(`data: ${ANSWER}\n\n`, 5, { "content-type": "application/json" })).toBe(-1);
  });

  it("reads a line that never ends in time linear in its length", () => {
    // A hostile server drips one endless line: 1 MiB (the response cap) in 100-byte pieces.
    // Rescanning the whole pending line on every piece took ~40 s here, the event loop blocked.
    const stop = watchForAnswer(7);
    const piece = Buffer.from("data: ".concat("x".repeat(94)));
    const started = performance.now();
    for (let i = 0; i < 10_500; i += 1) expect(stop(piece, SSE)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_500);
  }, 60_000);
});
