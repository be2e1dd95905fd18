import { describe, expect, it } from "vitest";
import { isEventStream, sseLineEndsToLf } from "./sse-line-ends";

/** Feeds `chunks` through one rewriter and gives back the text it produced. */
function rewritten(chunks: string[]): string {
  const rewrite = sseLineEndsToLf();
  const encoder = new TextEncoder();
  return chunks.map((c) => new TextDecoder().decode(rewrite(encoder.encode(c)))).join("");
}

describe("sseLineEndsToLf", () => {
  it("turns CRLF and bare CR into LF, and keeps LF", () => {
    expect(rewritten(["data: a\r\ndata: b\rdata: c\n\r\n"])).toBe("data: a\ndata: b\ndata: c\n\n");
    expect(rewritten(["\r\r\n\n\r"])).toBe("\n\n\n\n");
  });

  it("ends a line at a CR that closes a chunk and drops the LF that opens the next one", () => {
    expect(rewritten(["data: a\r", "\ndata: b\r", "\r", "\n", "\n"])).toBe("data: a\ndata: b\n\n\n");
  });

  it("keeps an LF after a chunk that did not end in CR, and a CR state across empty chunks", () => {
    expect(rewritten(["data: a\n", "\n"])).toBe("data: a\n\n");
    expect(rewritten(["a\r", "", "\nb"])).toBe("a\nb");
  });

  it("hands a chunk without CR back as it is", () => {
    const rewrite = sseLineEndsToLf();
    const chunk = new TextEncoder().encode("data: x\n\n");
    expect(rewrite(chunk)).toBe(chunk);
  });

  it("keeps multi-byte characters whole", () => {
    expect(rewritten(["data: é€😀\r", "\ndata: ü\r\r"])).toBe("data: é€😀\ndata: ü\n\n");
  });
});

describe("isEventStream", () => {
  it("reads the essence of the content type", () => {
    expect(isEventStream("text/event-stream")).toBe(true);
    expect(isEventStream(" Text/Event-Stream ; charset=utf-8")).toBe(true);
    expect(isEventStream("text/event-streams")).toBe(false);
    expect(isEventStream("application/json")).toBe(false);
    expect(isEventStream(undefined)).toBe(false);
  });
});
