import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { listCalls } from "@/db/queries/overview";
import { seedCalls, seededDuration, SEED_TOOLS } from "@/test/support/seed-calls";
import { getOverview, getToolCallHistory } from "./overview";

const NOW = Date.UTC(2026, 11, 1, 12, 0);

function seeded(calls = 1000) {
  const db = openDb(":memory:");
  // Spread over 50 minutes ending a minute ago: all inside the 1 h window.
  seedCalls(db, { calls, now: NOW - 60_000, spanMs: 50 * 60_000 });
  return db;
}

describe("getOverview", () => {
  it("counts calls, errors and blocks over the window, per bucket and in total", async () => {
    const overview = await getOverview(seeded(), "1h", NOW);
    const blocked = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i % 101 === 0).length;
    const errors = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i % 17 === 0 && i % 101 !== 0).length;
    expect(overview.totals).toMatchObject({ calls: 1000, blocked, errors, turns: 100 });
    expect(overview.calls).toHaveLength(60);
    expect(overview.calls.reduce((s, p) => s + p.ok + p.errors + p.blocked, 0)).toBe(1000);
    expect(overview.turns.reduce((s, p) => s + p.failed, 0)).toBe(overview.totals.failedTurns);
  });

  it("gives exact p50/p95 per tool and the newest blocks with their rule", async () => {
    const overview = await getOverview(seeded(), "1h", NOW);
    const stat = overview.tools.find((t) => t.tool === "get_order")!;
    const durations = Array.from({ length: 1000 }, (_, i) => i)
      .filter((i) => i % SEED_TOOLS.length === 0)
      .map((i) => (i % 101 === 0 ? 0 : seededDuration(0, i)))
      .sort((a, b) => a - b);
    expect(stat.calls).toBe(durations.length);
    expect(stat.p50).toBe(durations[Math.ceil(0.5 * durations.length) - 1]);
    expect(stat.p95).toBe(durations[Math.ceil(0.95 * durations.length) - 1]);
    expect(overview.blocks.length).toBe(10);
    expect(overview.blocks[0]).toMatchObject({ rule: "private-address", callId: "call_909" });
    expect(overview.agents.map((a) => a.agent).sort()).toEqual(["billing", "support"]);
    expect(overview.agents.reduce((s, a) => s + a.turns, 0)).toBe(100);
    expect(overview.agents[0]!.inputTokens).toBeGreaterThan(0);
  });

  it("leaves out what is older than the window", async () => {
    const db = openDb(":memory:");
    seedCalls(db, { calls: 100, now: NOW - 2 * 3_600_000, spanMs: 60_000 });
    const overview = await getOverview(db, "1h", NOW);
    expect(overview.totals.calls).toBe(0);
    expect((await getOverview(db, "24h", NOW)).totals.calls).toBe(100);
  });

  it("a tool's history covers that tool only", async () => {
    const history = await getToolCallHistory(seeded(), "fetch_page", "1h", NOW);
    expect(history.stat?.tool).toBe("fetch_page");
    expect(history.calls.reduce((s, p) => s + p.ok + p.errors + p.blocked, 0)).toBe(200);
  });
});

describe("listCalls", () => {
  it("filters by tool, outcome and time, newest first", async () => {
    const db = seeded();
    const blocked = await listCalls(db, { outcome: "blocked", limit: 50 });
    expect(blocked).toHaveLength(10);
    expect(blocked.every((c) => c.rule === "private-address" && c.ok === 0)).toBe(true);
    const refunds = await listCalls(db, { tool: "refund_order", outcome: "ok", limit: 5 });
    expect(refunds.every((c) => c.tool === "refund_order" && c.ok === 1)).toBe(true);
    expect(refunds[0]!.startedAt).toBeGreaterThan(refunds[4]!.startedAt);
    const first = (await listCalls(db, { limit: 1000 })).at(-1)!;
    const until = await listCalls(db, { until: first.startedAt + 1, limit: 10 });
    expect(until.map((c) => c.callId)).toEqual(["call_0"]);
  });
});
