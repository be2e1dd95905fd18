/**
 * Reading sessions back: the transcript (messages in order, turns with status)
 * and the trace (per turn, its events and every tool call record).
 */
import type { Db } from "@/db/database";
import { getSession, listSessions, type SessionFilter } from "@/db/queries/sessions";
import { getSessionToolCall, listTrace } from "@/db/queries/traces";
import { listTurnMessages } from "@/db/queries/transcripts";
import { getSessionTurn, listTurnsPage } from "@/db/queries/turns";
import type { ToolCallRow, TurnRow } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { TurnPage } from "./turn-page";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function presentTurn(t: TurnRow) {
  return {
    id: t.id,
    seq: t.seq,
    status: t.status,
    parent_turn_id: t.parentTurnId,
    user_message: t.userMessage,
    content: t.content,
    error: t.error,
    usage: t.usage,
    started_at: iso(t.startedAt),
    ended_at: iso(t.endedAt),
  };
}

export async function getSessionOrThrow(db: Db, id: string) {
  const session = await getSession(db, id);
  if (!session) throw notFound(`session '${id}'`);
  return session;
}

/** Recent sessions, newest first (an agent id, or a filter: see session-access.ts). */
export async function listSessionsPresented(db: Db, filter?: string | SessionFilter) {
  const sessions = await listSessions(db, typeof filter === "string" ? { agentId: filter } : (filter ?? {}));
  return sessions.map((s) => ({
    id: s.id,
    agent_id: s.agentId,
    tenant: s.tenant,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  }));
}

/**
 * A page of the session's turns, and the `after_seq` of the next page: null when this page holds
 * the session's last turn (one turn more than the limit is read, to tell).
 */
async function readTurnsPage(db: Db, id: string, page: TurnPage) {
  const read = await listTurnsPage(db, id, { afterSeq: page.afterSeq, limit: page.limit + 1 });
  const turns = read.slice(0, page.limit);
  return { turns, next: read.length > page.limit ? turns.at(-1)!.seq : null };
}

/** The transcript of a page of turns: the turns with their status, and their messages in order. */
export async function getTranscript(db: Db, id: string, page: TurnPage) {
  const session = await getSessionOrThrow(db, id);
  const { turns, next } = await readTurnsPage(db, id, page);
  const messages = await listTurnMessages(
    db,
    turns.map((t) => t.id),
  );
  return {
    id: session.id,
    agent_id: session.agentId,
    tenant: session.tenant,
    turns: turns.map(presentTurn),
    messages: messages.map((m) => ({
      turn_id: m.turnId,
      role: m.role,
      content: m.content,
      ...(m.toolCalls ? { tool_calls: m.toolCalls } : {}),
      ...(m.callId ? { call_id: m.callId, tool: m.tool } : {}),
    })),
    next_after_seq: next,
  };
}

type TraceCall = ReturnType<typeof presentCall>;
type TraceEvent = ReturnType<typeof presentEvent>;

function presentEvent(e: Awaited<ReturnType<typeof listTrace>>["events"][number]) {
  return { seq: e.seq, type: e.type, at: iso(e.at), ...e.data };
}

function presentCall(c: ToolCallRow) {
  return {
    ...c.record,
    call_id: c.callId,
    tool: c.tool,
    ok: c.ok,
    started_at: iso(c.startedAt),
    duration_ms: c.durationMs,
    queued_ms: c.queuedMs,
  };
}

/**
 * Per turn of a page (or the one turn `turnId`): its ordered events and every tool call record
 * (queue time and halt verdict included).
 */
export async function getTrace(db: Db, id: string, options: { turnId?: string; page: TurnPage }) {
  const session = await getSessionOrThrow(db, id);
  let turns: TurnRow[];
  let next: number | null = null;
  if (options.turnId !== undefined) {
    const turn = await getSessionTurn(db, id, options.turnId);
    turns = turn ? [turn] : [];
  } else {
    ({ turns, next } = await readTurnsPage(db, id, options.page));
  }
  const { events, calls } = await listTrace(
    db,
    turns.map((t) => t.id),
  );
  // One pass over each list (rows keep their query order inside a turn), not one filter per turn.
  const byTurn = new Map(turns.map((t) => [t.id, { events: [] as TraceEvent[], calls: [] as TraceCall[] }]));
  for (const e of events) byTurn.get(e.turnId)?.events.push(presentEvent(e));
  for (const c of calls) byTurn.get(c.turnId)?.calls.push(presentCall(c));
  return {
    session_id: session.id,
    agent_id: session.agentId,
    turns: turns.map((t) => ({ ...presentTurn(t), ...byTurn.get(t.id)! })),
    next_after_seq: next,
  };
}

/** One call's record as the trace carries it, or a not_found error (the Studio loads it when a call is opened). */
export async function getTraceCall(db: Db, sessionId: string, callId: string, turnId?: string): Promise<TraceCall> {
  await getSessionOrThrow(db, sessionId);
  const row = await getSessionToolCall(db, { sessionId, callId, turnId });
  if (!row) throw notFound(`call '${callId}' in session '${sessionId}'`);
  return presentCall(row);
}
