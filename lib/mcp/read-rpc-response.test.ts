import { describe, expect, it } from "vitest";
import { describeRpcError, parseSseData, readRpcResponse } from "./read-rpc-response";

const SSE = "text/event-stream";

describe("parseSseData", () => {
  it("returns each event's data, skipping empty data, comments and other fields", () => {
    const body = [
      ": keep-alive",
      "",
      "id: 1",
      "data:",
      "",
      "event: message",
      'data: {"a":1}',
      "",
      "retry: 10",
      'data:{"b":2}',
      "",
      "",
    ].join("\n");
    expect(parseSseData(body)).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("joins multi-line data and accepts CRLF framing and a last event without a blank line", () => {
    expect(parseSseData('data: {"a":\r\ndata: 1}\r\n\r\ndata: {"c":3}')).toEqual(['{"a":\n1}', '{"c":3}']);
  });

  it("does not mistake a field that merely starts with 'data' for data", () => {
    expect(parseSseData("database: x\n\n")).toEqual([]);
  });
});

describe("readRpcResponse", () => {
  const progress = JSON.stringify({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progress: 1, total: 2, progressToken: 7 },
  });
  const answer = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: [] } });

  it("takes the SSE message whose id matches, ignoring progress notifications and other ids", () => {
    const other = JSON.stringify({ jsonrpc: "2.0", id: 6, result: { stale: true } });
    const body = `event: message\ndata:\n\nevent: message\ndata: ${progress}\n\ndata: ${other}\n\ndata: ${answer}\n\n`;
    expect(readRpcResponse(body, `${SSE}; charset=utf-8`, 7)).toEqual({
      ok: true,
      message: { jsonrpc: "2.0", id: 7, result: { content: [] } },
    });
  });

  it("ignores a server request that reuses the id", () => {
    const request = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "sampling/createMessage", params: {} });
    expect(readRpcResponse(`data: ${request}\n\ndata: ${answer}\n\n`, SSE, 7).ok).toBe(true);
    expect(readRpcResponse(`data: ${request}\n\n`, SSE, 7).ok).toBe(false);
  });

  it("reads plain JSON, including a batch", () => {
    expect(readRpcResponse(answer, "application/json", 7).ok).toBe(true);
    expect(readRpcResponse(`[${progress},${answer}]`, "application/json", 7)).toMatchObject({
      ok: true,
      message: { id: 7 },
    });
  });

  it("returns a JSON-RPC error response as the message", () => {
    const err = JSON.stringify({ jsonrpc: "2.0", id: 7, error: { code: -32602, message: "Invalid params" } });
    const read = readRpcResponse(err, "application/json", 7);
    expect(read).toMatchObject({ ok: true, message: { error: { code: -32602 } } });
    expect(read.ok && describeRpcError(read.message.error)).toBe("MCP error -32602: Invalid params");
  });

  it("explains an empty body, a non-JSON body and a body without the answer", () => {
    expect(readRpcResponse("", "application/json", 1)).toEqual({
      ok: false,
      error: "the MCP server sent an empty response",
    });
    expect(readRpcResponse("<html>", "text/html", 1)).toMatchObject({
      ok: false,
      error: expect.stringContaining("not JSON"),
    });
    expect(readRpcResponse(`data: ${progress}\n\n`, SSE, 1)).toMatchObject({
      ok: false,
      error: expect.stringContaining("no answer to request 1"),
    });
  });
});
