import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { seedCalls } from "@/test/support/seed-calls";
import { listTurnGroups, type TurnGroupRow } from "./overview";

const NOW = Date.UTC(2026, 11, 1, 12, 0);
const BUCKET_MS = 600_000;

/** The groups listTurnGroups should answer, computed here from every turn with its session. */
async function expectedGroups(db: ReturnType<typeof openDb>, since: number, tenant?: string) {
  const turns = await db.execute<{
    started: number;
    status: string;
    usage: string;
    agent: string;
    tenant: string | null;
  }>(
    sql`select t.started_at as started, t.status, t.usage, s.agent_id as agent, s.tenant from turns t join sessions s on s.id = t.session_id`,
  );
  const groups = new Map<string, TurnGroupRow>();
  for (const t of turns) {
    if (t.started < since || (tenant !== undefined && t.tenant !== tenant)) continue;
    const bucket = Math.floor((t.started - since) / BUCKET_MS);
    const key = `${bucket}|${t.agent}|${t.status}`;
    const g = groups.get(key) ?? { bucket, agentId: t.agent, status: t.status, n: 0, inputTokens: 0, outputTokens: 0 };
    const usage = JSON.parse(t.usage) as { inputTokens: number; outputTokens: number };
    g.n += 1;
    g.inputTokens += usage.inputTokens;
    g.outputTokens += usage.outputTokens;
    groups.set(key, g);
  }
  return sorted([...groups.values()]);
}

const sorted = (rows: TurnGroupRow[]) =>
  [...rows].sort(
    (a, b) => a.bucket - b.bucket || a.agentId.localeCompare(b.agentId) || a.status.localeCompare(b.status),
  );

describe("listTurnGroups", () => {
  it("counts the window's turns and sums their tokens per bucket, agent and status, for everyone and for one tenant", async () => {
    const db = openDb(":memory:");
    // 300 turns in 30 sessions over 50 minutes; odd sessions are acme's, every 23rd turn failed.
    await seedCalls(db, {
      calls: 3000,
      now: NOW - 60_000,
      spanMs: 50 * 60_000,
      tenantOf: (i) => (i % 2 ? "acme" : null),
    });
    // A window that starts mid-span and off a bucket boundary: some turns fall before it.
    const since = NOW - 60_000 - 37 * 60_000 + 12_345;
    const all = sorted(await listTurnGroups(db, { since, bucketMs: BUCKET_MS }));
    expect(all).toEqual(await expectedGroups(db, since));
    expect(all.some((g) => g.status === "failed")).toBe(true);
    expect(new Set(all.map((g) => g.agentId))).toEqual(new Set(["support", "billing"]));

    const acme = sorted(await listTurnGroups(db, { since, bucketMs: BUCKET_MS, tenant: "acme" }));
    expect(acme).toEqual(await expectedGroups(db, since, "acme"));
    expect(acme.reduce((s, g) => s + g.n, 0)).toBeLessThan(all.reduce((s, g) => s + g.n, 0));
  });
});
