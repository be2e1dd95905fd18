/**
 * What a turn's observers may name a call's tool by (setup-turn.ts, isKnownTool): the catalog's
 * tools and the turn's system tools, never a name only the model knows.
 */
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { SubagentBudget } from "@/lib/code-tools/system/subagent-budget";
import { getAgentOrThrow } from "@/lib/services/agents/agents";
import { agentRow } from "@/test/support/agent-row";
import { setupTurn } from "./setup-turn";

describe("setupTurn's isKnownTool", () => {
  it("vouches for catalog and system tools, not for a name the model made up", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a", { memory: true }));
    const session = await insertSession(db, { id: "s", agentId: "a", tenant: null });
    const setup = await setupTurn(db, {
      turnId: "turn_1",
      session,
      agent: await getAgentOrThrow(db, "a"),
      message: "hi",
      depth: 0,
      startStep: 0,
      fresh: true,
      firstOfSession: true,
      runChild: () => Promise.reject(new Error("no child turns here")),
      subagentBudget: new SubagentBudget(0),
    });
    expect(setup.isKnownTool("current_time")).toBe(true);
    expect(setup.isKnownTool("remember")).toBe(true);
    expect(setup.isKnownTool("made_up_tool")).toBe(false);
    expect(setup.isKnownTool("__proto__")).toBe(false);
  });
});
