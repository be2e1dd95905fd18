/**
 * An MCP tools/call whose tool answers JSON nested thousands of levels deep: the call is
 * traced and its turn ends, the result is given back (without a structuredContent no client
 * could serialize), instead of the trace write throwing and leaving the turn running.
 */
import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent, getAgentRecord } from "@/db/queries/agents";
import { getSession, insertSession } from "@/db/queries/sessions";
import { listTurnEvents } from "@/db/queries/traces";
import { getTurn } from "@/db/queries/turns";
import { agentRow } from "@/test/support/agent-row";
import { keyPrincipal } from "@/test/support/key-principal";
import { mcpCallResult } from "./mcp-call-result";
import { runMcpToolCall } from "./run-mcp-tool-call";

const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;

vi.mock("./agent-mcp-offer", () => ({
  agentMcpOffer: async () => ({
    tools: [],
    callable: new Set(["lookup"]),
    gated: new Set<string>(),
    executor: { execute: async () => ({ ok: true, content: deep }) },
    ctx: {},
    describeCall: () => undefined,
  }),
}));

const principal = keyPrincipal();

describe("runMcpToolCall: a deeply nested result", () => {
  it("is traced as text, the turn completes, and the MCP result carries it as text only", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a"));
    await insertSession(db, { id: "s", agentId: "a", tenant: null });
    const agent = await getAgentRecord(db, "a");
    const session = await getSession(db, "s");
    const result = await runMcpToolCall(db, {
      agent: agent!,
      session: session!,
      principal,
      requestId: 1,
      tool: "lookup",
      arguments: {},
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ ok: true, content: deep });
    expect((await getTurn(db, result.turnId))?.status).toBe("completed");
    const events = await listTurnEvents(db, { turnId: result.turnId });
    expect(events.find((e) => e.type === "tool_result")?.data).toMatchObject({ ok: true, result: deep });

    const answer = mcpCallResult(result);
    expect(answer.structuredContent).toBeUndefined();
    expect(() => JSON.stringify(answer)).not.toThrow();
  });
});
