/**
 * Issue 13.10: the journal rows of a side-effecting call are committed with
 * synchronous=FULL (they must survive power loss: a lost `started` row would send the call
 * again on resume); the rows of a read-only call and every other write keep NORMAL.
 */
import { describe, expect, it, vi } from "vitest";
import { openDb, type Db } from "@/db/client";
import type { SqliteDatabase } from "@/db/sqlite-database";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { TurnRecorder } from "./turn-recorder";
import { agentRow } from "@/test/support/agent-row";

const seen: { write: string; synchronous: unknown }[] = [];

vi.mock("@/db/queries/checkpoints", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/db/queries/checkpoints")>();
  const level = (db: Db) => (db as SqliteDatabase).client.pragma("synchronous", { simple: true });
  return {
    ...original,
    journalStarted: (db: Db, row: Parameters<typeof original.journalStarted>[1]) => {
      seen.push({ write: `started ${row.tool}`, synchronous: level(db) });
      return original.journalStarted(db, row);
    },
    journalCompleted: (db: Db, row: Parameters<typeof original.journalCompleted>[1]) => {
      seen.push({ write: `completed ${row.tool}`, synchronous: level(db) });
      return original.journalCompleted(db, row);
    },
    saveCheckpoint: (db: Db, params: Parameters<typeof original.saveCheckpoint>[1]) => {
      seen.push({ write: "checkpoint", synchronous: level(db) });
      return original.saveCheckpoint(db, params);
    },
  };
});

async function fixture(): Promise<SqliteDatabase> {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a"));
  await insertSession(db, { id: "s", agentId: "a", tenant: null });
  await insertTurn(db, { id: "t", sessionId: "s", userMessage: "go" });
  return db;
}

describe("journal durability", () => {
  it("commits the journal rows of a side-effecting call with synchronous=FULL, a read-only call's with NORMAL", async () => {
    const db = await fixture();
    const recorder = await TurnRecorder.open(db, "t", "s", { sideEffect: (tool) => tool === "charge" });
    const call = (position: number, tool: string) => ({
      identity: `id-${position}`,
      step: 0,
      position,
      callId: `c${position}`,
      tool,
      arguments: {},
    });
    seen.length = 0;
    await recorder.callStarted(call(0, "charge"));
    await recorder.callCompleted({ ...call(0, "charge"), ok: true, content: "{}" });
    await recorder.callStarted(call(1, "lookup"));
    await recorder.callCompleted({ ...call(1, "lookup"), ok: true, content: "{}" });
    await recorder.save({ turnId: "t", step: 0, messages: [{ role: "user", content: "go" }], completedCalls: [] });
    expect(seen).toEqual([
      { write: "started charge", synchronous: 2 },
      { write: "completed charge", synchronous: 2 },
      { write: "started lookup", synchronous: 1 },
      { write: "completed lookup", synchronous: 1 },
      { write: "checkpoint", synchronous: 1 },
    ]);
    expect(db.client.pragma("synchronous", { simple: true })).toBe(1);
  });

  it("treats a tool it cannot classify as side-effecting", async () => {
    const db = await fixture();
    seen.length = 0;
    await (
      await TurnRecorder.open(db, "t", "s")
    ).callStarted({
      identity: "x",
      step: 0,
      position: 0,
      callId: "c",
      tool: "unknown",
      arguments: {},
    });
    expect(seen).toEqual([{ write: "started unknown", synchronous: 2 }]);
  });
});
