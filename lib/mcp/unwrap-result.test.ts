import { describe, expect, it } from "vitest";
import { unwrapResult } from "./unwrap-result";

describe("unwrapResult", () => {
  it("prefers structuredContent, and halt_when reads it", () => {
    const r = unwrapResult({ content: [{ type: "text", text: '{"t":1}' }], structuredContent: { temperature: 33 } });
    expect(r).toEqual({ ok: true, value: { temperature: 33 }, haltBody: '{"temperature":33}' });
  });

  it("joins text content; JSON text is what halt_when reads", () => {
    expect(
      unwrapResult({
        content: [
          { type: "text", text: "Echo: hi" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "text", text: "bye" },
        ],
      }),
    ).toEqual({
      ok: true,
      value: "Echo: hi\nbye",
    });
    expect(unwrapResult({ content: [{ type: "text", text: '{"status":"SUBSCRIBED"}' }] })).toEqual({
      ok: true,
      value: '{"status":"SUBSCRIBED"}',
      haltBody: '{"status":"SUBSCRIBED"}',
    });
  });

  it("turns isError into an error result with the server's text", () => {
    expect(unwrapResult({ isError: true, content: [{ type: "text", text: "Unsupported URL protocol" }] })).toEqual({
      ok: false,
      error: "Unsupported URL protocol",
    });
    expect(unwrapResult({ isError: true, content: [] })).toEqual({
      ok: false,
      error: "the MCP tool reported an error (no message)",
    });
  });

  it("describes non-text content without its data", () => {
    const r = unwrapResult({
      content: [
        { type: "image", data: "A".repeat(10_000), mimeType: "image/png" },
        { type: "resource_link", uri: "test://static/resource/1", name: "Resource 1", mimeType: "text/plain" },
        { type: "resource", resource: { uri: "test://x", mimeType: "application/gzip", blob: "B".repeat(100) } },
      ],
    });
    expect(r).toEqual({
      ok: true,
      value: [
        { type: "image", mimeType: "image/png" },
        { type: "resource_link", uri: "test://static/resource/1", name: "Resource 1", mimeType: "text/plain" },
        { type: "resource", uri: "test://x", mimeType: "application/gzip" },
      ],
    });
    expect(JSON.stringify(r)).not.toContain("AAAA");
  });

  it("refuses a result that is not an object", () => {
    expect(unwrapResult(null).ok).toBe(false);
    expect(unwrapResult([1]).ok).toBe(false);
    expect(unwrapResult({})).toEqual({ ok: true, value: [] });
  });
});

describe("unwrapResult: a structuredContent nested too deeply", () => {
  it("is an error naming the problem, not a throw", () => {
    const structuredContent = JSON.parse(`{"a":${"[".repeat(50_000)}${"]".repeat(50_000)}}`) as unknown;
    expect(unwrapResult({ content: [], structuredContent })).toEqual({
      ok: false,
      error: "the MCP server's structuredContent is nested too deeply to be read",
    });
  });
});
