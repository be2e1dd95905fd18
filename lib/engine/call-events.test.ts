import { describe, expect, it } from "vitest";
import { MAX_TRACED_RESULT_DEPTH, toolResultEvent } from "./call-events";

const call = { id: "c1", name: "lookup", arguments: "{}" };
const timing = { durationMs: 1, queuedMs: 0 };
const flags = { halted: false, replayed: false };
const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("toolResultEvent", () => {
  it("parses a JSON result, keeps other text as it is", () => {
    expect(toolResultEvent(call, { ok: true, content: '{"a":[1]}' }, timing, flags)).toMatchObject({
      result: { a: [1] },
    });
    expect(toolResultEvent(call, { ok: true, content: "plain" }, timing, flags)).toMatchObject({ result: "plain" });
  });

  it("parses a result nested MAX_TRACED_RESULT_DEPTH levels", () => {
    const event = toolResultEvent(call, { ok: true, content: nested(MAX_TRACED_RESULT_DEPTH) }, timing, flags);
    expect(Array.isArray((event as { result?: unknown }).result)).toBe(true);
  });

  it("keeps a result nested deeper as its text, so the trace can still be written", () => {
    const content = nested(100_000);
    const event = toolResultEvent(call, { ok: true, content }, timing, flags);
    expect(event).toMatchObject({ result: content });
    expect(() => JSON.stringify(event)).not.toThrow();
  });
});
