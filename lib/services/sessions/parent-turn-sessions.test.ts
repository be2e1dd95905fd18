import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { agentRow } from "@/test/support/agent-row";
import { parentTurnSessions } from "./parent-turn-sessions";

describe("parentTurnSessions", () => {
  it("maps each parent turn named by a page to its session, and a parent that is gone to null", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a1"));
    for (const s of ["parent_s", "child_s"]) await insertSession(db, { id: s, agentId: "a1", tenant: null });
    await insertTurn(db, { id: "root", sessionId: "parent_s", userMessage: "go" });
    await insertTurn(db, { id: "child", sessionId: "child_s", userMessage: "do", parentTurnId: "root" });
    const page = [
      { parent_turn_id: "root" },
      { parent_turn_id: null },
      { parent_turn_id: "root" },
      { parent_turn_id: "deleted_turn" },
    ];
    expect([...(await parentTurnSessions(db, page))]).toEqual([
      ["root", "parent_s"],
      ["deleted_turn", null],
    ]);
  });
});
