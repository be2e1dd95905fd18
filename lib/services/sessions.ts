/**
 * Reading sessions back: the transcript (messages in order, turns with status)
 * and the trace (per turn, its events and every tool call record).
 */
import type { Db } from "@/db/client";
import { getSession, listMessages, listSessions, listTrace, listTurns } from "@/db/queries/sessions";
import type { TurnRow } from "@/db/schema";
import { notFound } from "@/lib/api/errors";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function presentTurn(t: TurnRow) {
  return {
    id: t.id,
    seq: t.seq,
    status: t.status,
    user_message: t.userMessage,
    content: t.content,
    error: t.error,
    usage: t.usage,
    started_at: iso(t.startedAt),
    ended_at: iso(t.endedAt),
  };
}

export function getSessionOrThrow(db: Db, id: string) {
  const session = getSession(db, id);
  if (!session) throw notFound(`session '${id}'`);
  return session;
}

/** Recent sessions, newest first. */
export function listSessionsPresented(db: Db, agentId?: string) {
  return listSessions(db, { agentId }).map((s) => ({
    id: s.id,
    agent_id: s.agentId,
    tenant: s.tenant,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  }));
}

/** The transcript: messages in order and the turns with their status. */
export function getTranscript(db: Db, id: string) {
  const session = getSessionOrThrow(db, id);
  return {
    id: session.id,
    agent_id: session.agentId,
    tenant: session.tenant,
    turns: listTurns(db, id).map(presentTurn),
    messages: listMessages(db, id).map((m) => ({
      turn_id: m.turnId,
      role: m.role,
      content: m.content,
      ...(m.toolCalls ? { tool_calls: m.toolCalls } : {}),
      ...(m.callId ? { call_id: m.callId, tool: m.tool } : {}),
    })),
  };
}

/** Per turn: its ordered events and every tool call record (queue time and halt verdict included). */
export function getTrace(db: Db, id: string, options: { turnId?: string } = {}) {
  const session = getSessionOrThrow(db, id);
  const turns = listTurns(db, id).filter((t) => !options.turnId || t.id === options.turnId);
  const { events, calls } = listTrace(db, turns.map((t) => t.id));
  return {
    session_id: session.id,
    agent_id: session.agentId,
    turns: turns.map((t) => ({
      ...presentTurn(t),
      events: events.filter((e) => e.turnId === t.id).map((e) => ({ seq: e.seq, type: e.type, at: iso(e.at), ...e.data })),
      calls: calls
        .filter((c) => c.turnId === t.id)
        .map((c) => ({ ...c.record, call_id: c.callId, tool: c.tool, ok: c.ok, started_at: iso(c.startedAt), duration_ms: c.durationMs, queued_ms: c.queuedMs })),
    })),
  };
}
