import { describe, expect, it } from "vitest";
import { HALT_META_KEY, mcpCallResult, TURN_META_KEY } from "./mcp-call-result";

describe("mcpCallResult", () => {
  it("gives a success as its JSON text, and an object as structuredContent", () => {
    const result = mcpCallResult({ ok: true, content: '{"sum":3}', turnId: "turn_1" });
    expect(result).toEqual({
      content: [{ type: "text", text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
      _meta: { [TURN_META_KEY]: "turn_1" },
    });
  });

  it("keeps a non-object result out of structuredContent", () => {
    expect(mcpCallResult({ ok: true, content: "[1,2]" }).structuredContent).toBeUndefined();
    expect(mcpCallResult({ ok: true, content: '"text"' }).structuredContent).toBeUndefined();
  });

  it("gives a failure as isError with the error text (a path-named validation error stays as is)", () => {
    const result = mcpCallResult({
      ok: false,
      content: '{"error":"a: expected a number, got a string"}',
      error: "a: expected a number, got a string",
    });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "a: expected a number, got a string" }]);
    expect(result.structuredContent).toBeUndefined();
  });

  it("reflects a halt in _meta and in a second text", () => {
    const result = mcpCallResult({
      ok: true,
      content: '{"status":"SUBSCRIBED"}',
      halt: { reason: 'tool_result.status = "SUBSCRIBED"', say: "Subscribed." },
    });
    expect(result._meta?.[HALT_META_KEY]).toEqual({ reason: 'tool_result.status = "SUBSCRIBED"', say: "Subscribed." });
    expect(result.content[1]).toEqual({
      type: "text",
      text: 'halted: tool_result.status = "SUBSCRIBED"; say: Subscribed.',
    });
    expect(result.isError).toBeUndefined();
  });
});
