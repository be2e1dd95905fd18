import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import * as traces from "@/db/queries/traces";
import { insertTurn, recordTurnEnd } from "@/db/queries/turns";
import { agentRow } from "@/test/support/agent-row";
import { turnEventFeed } from "./turn-event-feed";

vi.mock("@/db/queries/traces", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/db/queries/traces")>();
  return { ...real, listTurnEvents: vi.fn(real.listTurnEvents) };
});

describe("turnEventFeed", () => {
  it("still delivers the terminal event of a turn that ends between its read of the events and of the turn", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a"));
    await insertSession(db, { id: "s", agentId: "a", tenant: null });
    await insertTurn(db, { id: "t", sessionId: "s", userMessage: "go" });
    await traces.insertEvent(db, { turnId: "t", seq: 1, type: "text_delta", data: { text: "Hi" }, at: 1 });
    const list = vi.mocked(traces.listTurnEvents);
    const real = list.getMockImplementation()!;
    list.mockImplementationOnce(real).mockImplementationOnce(async (...args) => {
      // This read finds nothing new; the turn ends right after it, before the feed looks at the turn.
      const rows = await real(...args);
      await recordTurnEnd(db, {
        event: { turnId: "t", seq: 2, type: "turn_completed", data: { content: "Hi" }, at: 2 },
        messages: [],
        turn: { id: "t", status: "completed", content: "Hi" },
      });
      return rows;
    });
    const seen: string[] = [];
    for await (const event of turnEventFeed(db, "t", 0, new AbortController().signal)) seen.push(event.type);
    expect(seen).toEqual(["text_delta", "turn_completed"]);
  });
});
