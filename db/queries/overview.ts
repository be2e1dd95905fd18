/**
 * The Overview's read side: aggregates over a time window of tool calls and turns, each one
 * an index range scan (tool_calls_started, tool_calls_tool_started, tool_calls_blocked,
 * turns_started; migration 0005) that reads no call record except the few blocked ones.
 * Percentiles are exact: the scan groups durations by value (whole milliseconds, so the
 * groups stay few) and the service walks the counts. better-sqlite3 binds a JS number as a
 * REAL, so bucket numbers are cast back to integers.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../client";

export interface WindowParams {
  since: number;
  /** Width of one bucket of the series, in ms. */
  bucketMs: number;
}

/** Calls in the window grouped by bucket, tool, outcome (ok or not) and duration. */
export interface CallGroupRow {
  bucket: number;
  tool: string;
  ok: number;
  durationMs: number;
  n: number;
}

export async function listCallGroups(db: Db, params: WindowParams): Promise<CallGroupRow[]> {
  return db.all<CallGroupRow>(sql`
    select cast((started_at - ${params.since}) / ${params.bucketMs} as integer) as bucket, tool, ok, duration_ms as durationMs, count(*) as n
    from tool_calls indexed by tool_calls_started
    where started_at >= ${params.since}
    group by 1, 2, 3, 4`);
}

/** One tool's calls in the window grouped by bucket, outcome and duration (its history chart). */
export async function listToolCallGroups(db: Db, params: WindowParams & { tool: string }): Promise<CallGroupRow[]> {
  return db.all<CallGroupRow>(sql`
    select cast((started_at - ${params.since}) / ${params.bucketMs} as integer) as bucket, tool, ok, duration_ms as durationMs, count(*) as n
    from tool_calls indexed by tool_calls_tool_started
    where tool = ${params.tool} and started_at >= ${params.since}
    group by 1, 3, 4`);
}

const BLOCKED = sql`json_extract(record, '$.egress.verdict') = 'blocked'`;

/** Blocked calls in the window per bucket and tool (the block rate). */
export async function countBlockedCalls(
  db: Db,
  params: WindowParams & { tool?: string },
): Promise<Array<{ bucket: number; tool: string; n: number }>> {
  return db.all(sql`
    select cast((started_at - ${params.since}) / ${params.bucketMs} as integer) as bucket, tool, count(*) as n
    from tool_calls indexed by tool_calls_blocked
    where ${BLOCKED} and started_at >= ${params.since} ${params.tool === undefined ? sql`` : sql`and tool = ${params.tool}`}
    group by 1, 2`);
}

export interface BlockedCallRow {
  turnId: string;
  sessionId: string;
  callId: string;
  tool: string;
  startedAt: number;
  rule: string | null;
  hint: string | null;
  url: string | null;
}

/** The newest blocked calls in the window, with the rule that refused each. */
export async function listRecentBlockedCalls(
  db: Db,
  params: { since: number; limit: number },
): Promise<BlockedCallRow[]> {
  return db.all<BlockedCallRow>(sql`
    select c.turn_id as turnId, t.session_id as sessionId, c.call_id as callId, c.tool, c.started_at as startedAt,
      json_extract(c.record, '$.egress.rule') as rule, json_extract(c.record, '$.egress.hint') as hint,
      json_extract(c.record, '$.request.url') as url
    from tool_calls c indexed by tool_calls_blocked join turns t on t.id = c.turn_id
    where json_extract(c.record, '$.egress.verdict') = 'blocked' and c.started_at >= ${params.since}
    order by c.started_at desc
    limit ${params.limit}`);
}

export interface TurnGroupRow {
  bucket: number;
  agentId: string;
  status: string;
  n: number;
  inputTokens: number;
  outputTokens: number;
}

/** Turns started in the window per bucket, agent and status, with their token usage summed. */
export async function listTurnGroups(db: Db, params: WindowParams): Promise<TurnGroupRow[]> {
  return db.all<TurnGroupRow>(sql`
    select cast((t.started_at - ${params.since}) / ${params.bucketMs} as integer) as bucket, s.agent_id as agentId, t.status, count(*) as n,
      coalesce(sum(json_extract(t.usage, '$.inputTokens')), 0) as inputTokens,
      coalesce(sum(json_extract(t.usage, '$.outputTokens')), 0) as outputTokens
    from turns t indexed by turns_started join sessions s on s.id = t.session_id
    where t.started_at >= ${params.since}
    group by 1, 2, 3`);
}

export interface CallListRow {
  id: number;
  turnId: string;
  sessionId: string;
  agentId: string;
  callId: string;
  tool: string;
  ok: number;
  startedAt: number;
  durationMs: number;
  status: number | null;
  verdict: string | null;
  rule: string | null;
  error: string | null;
}

export interface CallFilter {
  tool?: string;
  /** `error`: failed, but not refused by the egress guard; `blocked`: refused by it; `ok`. */
  outcome?: "ok" | "error" | "blocked";
  agent?: string;
  since?: number;
  until?: number;
  /** Paging: only calls older than this one (its start and id: the list's order). */
  before?: { startedAt: number; id: number };
  limit: number;
}

/** Calls, newest first, filtered by tool, outcome and time; every filter served by an index. */
export async function listCalls(db: Db, filter: CallFilter): Promise<CallListRow[]> {
  const where = [sql`1 = 1`];
  if (filter.tool !== undefined) where.push(sql`c.tool = ${filter.tool}`);
  if (filter.outcome === "ok") where.push(sql`c.ok = 1`);
  if (filter.outcome === "error")
    where.push(sql`c.ok = 0 and coalesce(json_extract(c.record, '$.egress.verdict'), '') <> 'blocked'`);
  if (filter.agent !== undefined) where.push(sql`s.agent_id = ${filter.agent}`);
  if (filter.outcome === "blocked") where.push(sql`json_extract(c.record, '$.egress.verdict') = 'blocked'`);
  if (filter.since !== undefined) where.push(sql`c.started_at >= ${filter.since}`);
  if (filter.until !== undefined) where.push(sql`c.started_at < ${filter.until}`);
  if (filter.before !== undefined) {
    const { startedAt, id } = filter.before;
    where.push(sql`(c.started_at < ${startedAt} or (c.started_at = ${startedAt} and c.id < ${id}))`);
  }
  return db.all<CallListRow>(sql`
    select c.id, c.turn_id as turnId, t.session_id as sessionId, s.agent_id as agentId, c.call_id as callId, c.tool,
      c.ok, c.started_at as startedAt, c.duration_ms as durationMs,
      json_extract(c.record, '$.status') as status, json_extract(c.record, '$.egress.verdict') as verdict,
      json_extract(c.record, '$.egress.rule') as rule, json_extract(c.record, '$.error') as error
    from tool_calls c join turns t on t.id = c.turn_id join sessions s on s.id = t.session_id
    where ${sql.join(where, sql` and `)}
    order by c.started_at desc, c.id desc
    limit ${filter.limit}`);
}
