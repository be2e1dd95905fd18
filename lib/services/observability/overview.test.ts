import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { insertApproval } from "@/db/queries/approvals";
import { listCalls } from "@/db/queries/overview";
import { seedCalls, seededDuration, SEED_TOOLS } from "@/test/support/seed-calls";
import { getOverview, getToolCallHistory } from "./overview";

const NOW = Date.UTC(2026, 11, 1, 12, 0);

async function seeded(calls = 1000) {
  const db = openDb(":memory:");
  // Spread over 50 minutes ending a minute ago: all inside the 1 h window.
  await seedCalls(db, { calls, now: NOW - 60_000, spanMs: 50 * 60_000 });
  return db;
}

describe("getOverview", () => {
  it("counts calls, errors and blocks over the window, per bucket and in total", async () => {
    const overview = await getOverview(await seeded(), { window: "1h", now: NOW });
    const blocked = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i % 101 === 0).length;
    const errors = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i % 17 === 0 && i % 101 !== 0).length;
    expect(overview.totals).toMatchObject({ calls: 1000, blocked, errors, turns: 100 });
    expect(overview.calls).toHaveLength(60);
    expect(overview.calls.reduce((s, p) => s + p.ok + p.errors + p.blocked, 0)).toBe(1000);
    expect(overview.turns.reduce((s, p) => s + p.failed, 0)).toBe(overview.totals.failedTurns);
  });

  it("gives exact p50/p95 per tool and the newest blocks with their rule", async () => {
    const overview = await getOverview(await seeded(), { window: "1h", now: NOW });
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
    await seedCalls(db, { calls: 100, now: NOW - 2 * 3_600_000, spanMs: 60_000 });
    const overview = await getOverview(db, { window: "1h", now: NOW });
    expect(overview.totals.calls).toBe(0);
    expect((await getOverview(db, { window: "24h", now: NOW })).totals.calls).toBe(100);
  });

  it("a tool's history covers that tool only", async () => {
    const history = await getToolCallHistory(await seeded(), "fetch_page", { window: "1h", now: NOW });
    expect(history.stat?.tool).toBe("fetch_page");
    expect(history.calls.reduce((s, p) => s + p.ok + p.errors + p.blocked, 0)).toBe(200);
  });
});

describe("a key pinned to a tenant", () => {
  it("sees only its tenant's calls, turns, blocks and approvals", async () => {
    const db = openDb(":memory:");
    // 1000 calls, 10 per turn, 10 turns per session: sessions 0..9; odd ones are acme's.
    await seedCalls(db, {
      calls: 1000,
      now: NOW - 60_000,
      spanMs: 50 * 60_000,
      tenantOf: (i) => (i % 2 ? "acme" : null),
    });
    const all = await getOverview(db, { window: "1h", now: NOW });
    const acme = await getOverview(db, { window: "1h", now: NOW, tenant: "acme" });
    expect(all.totals.calls).toBe(1000);
    expect(acme.totals.calls).toBe(500);
    expect(acme.totals.turns).toBe(50);
    expect(acme.calls.reduce((s, p) => s + p.ok + p.errors + p.blocked, 0)).toBe(500);
    expect(acme.tools.reduce((s, t) => s + t.calls, 0)).toBe(500);
    const sessionOf = (callIndex: number) => Math.floor(callIndex / 100);
    const acmeBlocked = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i % 101 === 0 && sessionOf(i) % 2);
    expect(acme.totals.blocked).toBe(acmeBlocked.length);
    expect(acme.blocks.every((b) => Number(b.sessionId.slice("seed_s".length)) % 2 === 1)).toBe(true);
    expect((await getOverview(db, { window: "1h", now: NOW, tenant: "nobody" })).totals.calls).toBe(0);
    const history = await getToolCallHistory(db, "get_order", { window: "1h", now: NOW, tenant: "acme" });
    expect(history.stat?.calls).toBe(100);
    const calls = await listCalls(db, { tenant: "acme", limit: 1000 });
    expect(calls).toHaveLength(500);
    const approval = { identity: "i", tool: "refund_order", arguments: {}, createdAt: NOW, expiresAt: NOW + 60_000 };
    await insertApproval(db, { ...approval, id: "apr_0", turnId: "seed_t0", sessionId: "seed_s0", callId: "call_0" });
    await insertApproval(db, {
      ...approval,
      id: "apr_1",
      turnId: "seed_t10",
      sessionId: "seed_s1",
      callId: "call_100",
    });
    const mine = await getOverview(db, { window: "1h", now: NOW, tenant: "acme" });
    expect(mine.pendingApprovals).toBe(1);
    expect(mine.approvals.map((a) => a.id)).toEqual(["apr_1"]);
    expect((await getOverview(db, { window: "1h", now: NOW })).pendingApprovals).toBe(2);
  });
});

describe("listCalls", () => {
  it("filters by tool, outcome and time, newest first", async () => {
    const db = await seeded();
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
