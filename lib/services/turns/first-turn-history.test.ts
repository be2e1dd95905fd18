/**
 * A session's first turn has no earlier turn, so its history is not read; every later turn
 * reads the finished turns' messages (setup-turn.ts, launch-turn.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { agentRow } from "@/test/support/agent-row";
import { startTurn } from "./start-turn";

const historyReads: number[] = [];

vi.mock("@/db/queries/transcripts", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/db/queries/transcripts")>();
  return {
    ...original,
    listFinishedTurnMessages: async (...args: Parameters<typeof original.listFinishedTurnMessages>) => {
      const rows = await original.listFinishedTurnMessages(...args);
      historyReads.push(rows.length);
      return rows;
    },
  };
});

describe("a turn's history", () => {
  it("is not read for the session's first turn, and holds the earlier turns for the next ones", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a"));
    await insertSession(db, { id: "s", agentId: "a", tenant: null });
    const turn = async (message: string) => {
      const result = await (await startTurn(db, { sessionId: "s", message, actor: null })).done;
      expect(result.status).toBe("completed");
    };

    await turn("first");
    expect(historyReads).toEqual([]);
    await turn("second");
    await turn("third");
    // The first turn's user and assistant messages, then the first two turns'.
    expect(historyReads).toEqual([2, 4]);
  });
});
