import { describe, expect, it } from "vitest";
import { openDb } from "../client";
import { upsertAgent } from "./agents";
import { keyTurnsSince } from "./key-turns";
import { getTurn, insertTurn, RateLimitedError } from "./turns";
import { insertSession } from "./sessions";
import { agentRow } from "@/test/support/agent-row";

async function seeded() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a"));
  await insertSession(db, { id: "s", agentId: "a", tenant: null });
  return db;
}

describe("the per-key turn limit", () => {
  it("records the key on the turn and refuses the turn past the limit inside the insert, with when a slot frees", async () => {
    const db = await seeded();
    const limit = { max: 2, windowMs: 60_000 };
    await insertTurn(db, { id: "t1", sessionId: "s", userMessage: "1", keyId: "k", rateLimit: limit, now: 1_000 });
    await insertTurn(db, { id: "t2", sessionId: "s", userMessage: "2", keyId: "k", rateLimit: limit, now: 5_000 });
    expect((await getTurn(db, "t1"))?.keyId).toBe("k");
    // Another key, and a turn without a key (a subagent's), are not counted.
    await insertTurn(db, { id: "o1", sessionId: "s", userMessage: "o", keyId: "other", rateLimit: limit, now: 6_000 });
    await insertTurn(db, { id: "sub", sessionId: "s", userMessage: "sub", now: 6_000 });
    let refused: unknown;
    try {
      await insertTurn(db, { id: "t3", sessionId: "s", userMessage: "3", keyId: "k", rateLimit: limit, now: 10_000 });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).freesAt).toBe(61_000); // the oldest (t1) leaves the window
    expect(await getTurn(db, "t3")).toBeUndefined(); // nothing half-written
    // Once t1 is out of the window, one more fits.
    await insertTurn(db, { id: "t4", sessionId: "s", userMessage: "4", keyId: "k", rateLimit: limit, now: 61_001 });
    expect(await keyTurnsSince(db, { keyId: "k", since: 61_001 - 60_000, max: 2 })).toEqual({
      count: 2,
      freesAt: 5_000,
    });
  });

  it("when the count is over a lowered limit, frees a slot only when enough turns left", async () => {
    const db = await seeded();
    for (const [i, at] of [1_000, 2_000, 3_000].entries())
      await insertTurn(db, { id: `t${i}`, sessionId: "s", userMessage: "x", keyId: "k", now: at });
    expect(await keyTurnsSince(db, { keyId: "k", since: 0, max: 1 })).toEqual({ count: 3, freesAt: 3_000 });
    expect(await keyTurnsSince(db, { keyId: "k", since: 0, max: 5 })).toEqual({ count: 3, freesAt: null });
  });
});
