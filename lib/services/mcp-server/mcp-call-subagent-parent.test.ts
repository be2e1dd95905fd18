/**
 * A spawn_subagent called over MCP starts its child turn under the MCP call's own turn: the
 * child's row names that turn as its parent, so a resume of the child stays within the MCP
 * agent's limits.max_subagent_turns.
 */
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { getAgentRecord, upsertAgent } from "@/db/queries/agents";
import { getSession, insertSession } from "@/db/queries/sessions";
import { getTurn } from "@/db/queries/turns";
import { agentRow } from "@/test/support/agent-row";
import { keyPrincipal } from "@/test/support/key-principal";
import { runMcpToolCall } from "./run-mcp-tool-call";

const principal = keyPrincipal();

describe("spawn_subagent over MCP", () => {
  it("records the MCP call's turn as the child turn's parent", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("leaf"));
    await upsertAgent(db, agentRow("boss", { subagents: ["leaf"] }));
    await insertSession(db, { id: "mcp_s", agentId: "boss", tenant: null });
    const result = await runMcpToolCall(db, {
      agent: (await getAgentRecord(db, "boss"))!,
      session: (await getSession(db, "mcp_s"))!,
      principal,
      requestId: 1,
      tool: "spawn_subagent",
      arguments: { agent: "leaf", message: "hi" },
      signal: new AbortController().signal,
    });
    expect(result.ok).toBe(true);
    const child = JSON.parse(result.content) as { turn_id: string; status: string };
    expect(child.status).toBe("completed");
    expect((await getTurn(db, child.turn_id))?.parentTurnId).toBe(result.turnId);
  });
});
