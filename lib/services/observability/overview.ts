/**
 * The Overview's read model for one window: turns and calls over time, error and block
 * rates, the slowest and most failing tools (exact p50/p95), the newest egress blocks with
 * their rule, the pending approvals and token usage per agent. Each part is one indexed
 * query (db/queries/overview.ts); they run in parallel once the query layer is async.
 */
import type { Db } from "@/db/client";
import {
  countBlockedCalls,
  countCallDurations,
  countCallsByBucket,
  listRecentBlockedCalls,
  listTurnGroups,
  type BlockedCallRow,
  type BucketCountRow,
  type DurationCountRow,
} from "@/db/queries/overview";
import { countPendingApprovals, listPendingApprovals } from "@/db/queries/pending-approvals";
import { overviewWindow, quantileOfCounts, type OverviewWindow } from "@/lib/observability/overview-window";

export interface SeriesPoint {
  /** Bucket start (ms). */
  at: number;
  ok: number;
  errors: number;
  blocked: number;
}

export interface TurnPoint {
  at: number;
  completed: number;
  failed: number;
  other: number;
}

export interface ToolStat {
  tool: string;
  calls: number;
  errors: number;
  blocked: number;
  errorRate: number;
  p50: number;
  p95: number;
}

export interface AgentUsage {
  agent: string;
  turns: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Overview {
  window: OverviewWindow;
  totals: { turns: number; failedTurns: number; calls: number; errors: number; blocked: number };
  calls: SeriesPoint[];
  turns: TurnPoint[];
  tools: ToolStat[];
  blocks: BlockedCallRow[];
  approvals: Awaited<ReturnType<typeof listPendingApprovals>>;
  pendingApprovals: number;
  agents: AgentUsage[];
}

export const RECENT_BLOCKS = 10;
export const PENDING_SHOWN = 10;

/** Which window, for whom: `tenant` keeps a key pinned to a tenant to its own sessions' calls. */
export interface OverviewOptions {
  window?: string | undefined;
  tenant?: string | undefined;
  now?: number;
}

export async function getOverview(db: Db, options: OverviewOptions = {}): Promise<Overview> {
  const window = overviewWindow(options.window, options.now ?? Date.now());
  const tenant = options.tenant === undefined ? {} : { tenant: options.tenant };
  const params = { since: window.since, bucketMs: window.bucketMs, ...tenant };
  const [buckets, durations, blockedGroups, blocks, turnGroups, approvals, pendingApprovals] = await Promise.all([
    countCallsByBucket(db, { ...params, buckets: window.buckets }),
    countCallDurations(db, { since: window.since, ...tenant }),
    countBlockedCalls(db, params),
    listRecentBlockedCalls(db, { since: window.since, limit: RECENT_BLOCKS, ...tenant }),
    listTurnGroups(db, params),
    listPendingApprovals(db, PENDING_SHOWN, options.tenant),
    countPendingApprovals(db, options.tenant),
  ]);
  const calls = callSeries(window, buckets, blockedGroups);
  const turns = emptySeries(window, (at) => ({ at, completed: 0, failed: 0, other: 0 }));
  const agents = new Map<string, AgentUsage>();
  for (const g of turnGroups) {
    const point = turns[g.bucket];
    if (point) {
      if (g.status === "completed" || g.status === "halted") point.completed += g.n;
      else if (g.status === "failed") point.failed += g.n;
      else point.other += g.n;
    }
    const a = agents.get(g.agentId) ?? { agent: g.agentId, turns: 0, failed: 0, inputTokens: 0, outputTokens: 0 };
    a.turns += g.n;
    if (g.status === "failed") a.failed += g.n;
    a.inputTokens += g.inputTokens;
    a.outputTokens += g.outputTokens;
    agents.set(g.agentId, a);
  }
  const tools = toolStats(durations, blockedGroups);
  const sum = (f: (p: SeriesPoint) => number) => calls.reduce((s, p) => s + f(p), 0);
  return {
    window,
    totals: {
      turns: turns.reduce((s, p) => s + p.completed + p.failed + p.other, 0),
      failedTurns: turns.reduce((s, p) => s + p.failed, 0),
      calls: sum((p) => p.ok + p.errors + p.blocked),
      errors: sum((p) => p.errors),
      blocked: sum((p) => p.blocked),
    },
    calls,
    turns,
    tools,
    blocks,
    approvals,
    pendingApprovals,
    agents: [...agents.values()].sort((a, b) => b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens)),
  };
}

/** One tool's call history over a window (its page's chart) and its p50/p95. */
export async function getToolCallHistory(db: Db, tool: string, options: OverviewOptions = {}) {
  const window = overviewWindow(options.window, options.now ?? Date.now());
  const tenant = options.tenant === undefined ? {} : { tenant: options.tenant };
  const params = { since: window.since, bucketMs: window.bucketMs, tool, ...tenant };
  const [buckets, durations, blocked] = await Promise.all([
    countCallsByBucket(db, { ...params, buckets: window.buckets }),
    countCallDurations(db, { since: window.since, tool, ...tenant }),
    countBlockedCalls(db, params),
  ]);
  return { window, calls: callSeries(window, buckets, blocked), stat: toolStats(durations, blocked)[0] };
}

function emptySeries<T>(window: OverviewWindow, make: (at: number) => T): T[] {
  return Array.from({ length: window.buckets }, (_, i) => make(window.since + i * window.bucketMs));
}

/** Calls per bucket: ok, failed (not blocked) and blocked (a blocked call is a failed one). */
function callSeries(
  window: OverviewWindow,
  buckets: BucketCountRow[],
  blocked: Array<{ bucket: number; n: number }>,
): SeriesPoint[] {
  const series = emptySeries(window, (at) => ({ at, ok: 0, errors: 0, blocked: 0 }));
  for (const b of buckets) {
    const point = series[b.bucket];
    if (!point) continue;
    point.ok += b.n - b.failed;
    point.errors += b.failed;
  }
  for (const b of blocked) {
    const point = series[b.bucket];
    if (!point) continue;
    point.blocked += b.n;
    point.errors = Math.max(0, point.errors - b.n);
  }
  return series;
}

function toolStats(groups: DurationCountRow[], blocked: Array<{ tool: string; n: number }>): ToolStat[] {
  const byTool = new Map<string, { calls: number; errors: number; durations: Map<number, number> }>();
  for (const g of groups) {
    const t = byTool.get(g.tool) ?? { calls: 0, errors: 0, durations: new Map<number, number>() };
    t.calls += g.n;
    if (!g.ok) t.errors += g.n;
    t.durations.set(g.durationMs, (t.durations.get(g.durationMs) ?? 0) + g.n);
    byTool.set(g.tool, t);
  }
  const blockedBy = new Map<string, number>();
  for (const b of blocked) blockedBy.set(b.tool, (blockedBy.get(b.tool) ?? 0) + b.n);
  return [...byTool].map(([tool, t]) => {
    const counts = [...t.durations];
    return {
      tool,
      calls: t.calls,
      errors: t.errors,
      blocked: blockedBy.get(tool) ?? 0,
      errorRate: t.calls === 0 ? 0 : t.errors / t.calls,
      p50: quantileOfCounts(counts, 0.5) ?? 0,
      p95: quantileOfCounts(counts, 0.95) ?? 0,
    };
  });
}
