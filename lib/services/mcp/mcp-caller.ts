/**
 * This process's MCP caller: one session cache shared by every turn and every
 * "try it" call, so the handshake with a server happens once per process, not
 * once per call. Kept on globalThis because Next.js may load this module once
 * per route bundle; a second cache would only cost a second handshake, but
 * one is what DESIGN D7 promises.
 */
import type { McpCaller } from "@/lib/http-tools";
import { createMcpCaller, McpSessions } from "@/lib/mcp";

const KEY = Symbol.for("insika.mcp.caller");

type Holder = { [KEY]?: { sessions: McpSessions; caller: McpCaller } };

/** The process-wide MCP caller (for lib/http-tools' `deps.mcp`). */
export function getMcpCaller(): McpCaller {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const sessions = new McpSessions();
    holder[KEY] = { sessions, caller: createMcpCaller(sessions) };
  }
  return holder[KEY].caller;
}
