import { describe, expect, it } from "vitest";
import { isMcpCallTurn, isMcpSessionId, newMcpSessionId } from "./mcp-session-id";

describe("MCP session ids and call turns", () => {
  it("tells an MCP session's id from another session's", () => {
    expect(isMcpSessionId(newMcpSessionId())).toBe(true);
    expect(isMcpSessionId("ses_0mx4nsivvsow0")).toBe(false);
  });

  it("counts as an MCP call only a turn of an MCP session with the call's message", () => {
    expect(isMcpCallTurn({ sessionId: "mcp_x", userMessage: "MCP tools/call add" })).toBe(true);
    expect(isMcpCallTurn({ sessionId: "mcp_x", userMessage: "hello from the playground" })).toBe(false);
    expect(isMcpCallTurn({ sessionId: "ses_x", userMessage: "MCP tools/call add" })).toBe(false);
  });
});
