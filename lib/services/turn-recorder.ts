/**
 * Persistence behind the engine's ports for one turn: every event is written
 * the moment it is emitted (with the call record of each tool result), each call
 * is journaled before it is sent and when its result is final, and the checkpoint
 * and transcript are written together at each checkpoint, so a crash loses
 * nothing already emitted and a resume knows exactly where the turn stood (DESIGN D9).
 *
 * Writes go through the process's group commit (write-queue.ts): the writes of all turns
 * issued within one tick share one transaction, and each port call resolves only once its
 * write is committed. The engine awaits every one, so it still never sends a call before
 * its journal row is durable, and listeners (and the crash hook) see an event only after
 * its commit, in emission order.
 */
import type { Db } from "@/db/client";
import { countTurnMessages, hasToolCallRecord, journalCompleted, journalStarted, saveCheckpoint } from "@/db/queries/checkpoints";
import { insertEvent, insertMessages, insertToolResult, lastEventSeq } from "@/db/queries/sessions";
import type { StoredCheckpoint } from "@/db/schema";
import type { CheckpointStore, CompletedCall, EngineEvent, EventSink, ModelMessage, StartedCall, TurnCheckpoint } from "@/lib/engine/ports";
import { groupCommit } from "./write-queue";

export type EventListener = (event: EngineEvent & { seq: number; at: number }) => void;

export interface RecorderOptions {
  now?: () => number;
  /** Called after each event is persisted (the scripted provider's crash points use it). */
  afterEvent?: (event: EngineEvent) => void;
}

export class TurnRecorder implements EventSink, CheckpointStore {
  private seq: number;
  /** Messages of this turn already in the transcript (the user message is written with the turn). */
  private persistedMessages: number;
  private listeners = new Set<EventListener>();
  private readonly now: () => number;
  /** The last checkpoint saved by this run (where a waiting turn stopped). */
  lastCheckpoint: TurnCheckpoint | undefined;

  constructor(
    private readonly db: Db,
    private readonly turnId: string,
    private readonly sessionId: string,
    private readonly options: RecorderOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.seq = lastEventSeq(db, turnId);
    this.persistedMessages = Math.max(1, countTurnMessages(db, turnId));
  }

  /** Adds a live listener (the SSE stream); returns its remover. */
  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Persists `event`; resolves once it is committed (then the crash hook and listeners see it). */
  async emit(event: EngineEvent): Promise<void> {
    const at = this.now();
    const seq = (this.seq += 1);
    const { type, ...data } = event;
    if (type === "tool_result") {
      const { record, ...summary } = data as Extract<EngineEvent, { type: "tool_result" }>;
      // The call record and its event commit together: one write instead of two, and a
      // crash cannot keep one without the other.
      await groupCommit(this.db, () =>
        insertToolResult(this.db, { call: this.callRecord(summary, record, at), event: { turnId: this.turnId, seq, type, data: summary, at } }),
      );
    } else {
      await groupCommit(this.db, () => insertEvent(this.db, { turnId: this.turnId, seq, type, data, at }));
    }
    this.options.afterEvent?.(event);
    if (this.listeners.size === 0) return;
    const withoutRecord = type === "tool_result" ? { ...event, record: undefined } : event;
    for (const listener of this.listeners) listener({ ...withoutRecord, seq, at });
  }

  /** The trace row of a tool result; undefined when a replayed result's row already exists. */
  private callRecord(summary: Omit<Extract<EngineEvent, { type: "tool_result" }>, "type" | "record">, record: unknown, at: number) {
    // A replayed result already has its call record, unless the process died between the
    // journal and the record: then the replay fills the gap so the trace has every call.
    if (summary.replayed && hasToolCallRecord(this.db, { turnId: this.turnId, callId: summary.call_id })) return undefined;
    return {
      turnId: this.turnId,
      callId: summary.call_id,
      tool: summary.tool,
      ok: summary.ok,
      startedAt: at - summary.duration_ms,
      durationMs: Math.round(summary.duration_ms),
      queuedMs: Math.round(summary.queued_ms),
      record: {
        ...(record as Record<string, unknown> | undefined),
        ...(summary.replayed ? { replayed: true, result: summary.result ?? null, ...(summary.error ? { error: summary.error } : {}) } : {}),
        duration_ms: Math.round(summary.duration_ms),
        queued_ms: Math.round(summary.queued_ms),
        halted: summary.halted ?? false,
      },
    };
  }

  async save(checkpoint: TurnCheckpoint): Promise<void> {
    this.lastCheckpoint = checkpoint;
    // An open batch (waiting) keeps its assistant message out of the transcript until the
    // batch closes: a resume rebuilds its tool results, and the transcript must not hold half.
    const closed = checkpoint.batchOpen ? checkpoint.messages.slice(0, lastAssistant(checkpoint.messages)) : checkpoint.messages;
    const { completedCalls: _journaled, ...state } = checkpoint;
    const params = { turnId: this.turnId, state: state as StoredCheckpoint, messages: this.rows(closed), now: this.now() };
    await groupCommit(this.db, () => saveCheckpoint(this.db, params));
    this.persistedMessages = Math.max(this.persistedMessages, closed.length);
  }

  saveOpenBatch(checkpoint: TurnCheckpoint): Promise<void> {
    return this.save(checkpoint);
  }

  /** Journals a call as started; resolves once the row is committed (the engine sends the call only then). */
  callStarted(call: StartedCall): Promise<void> {
    const row = { turnId: this.turnId, ...call, now: this.now() };
    return groupCommit(this.db, () => journalStarted(this.db, row));
  }

  callCompleted(call: CompletedCall): Promise<void> {
    const { identity, step, position, callId, tool, ...outcome } = call;
    const row = { turnId: this.turnId, identity, step, position, callId, tool, outcome, now: this.now() };
    return groupCommit(this.db, () => journalCompleted(this.db, row));
  }

  /**
   * Writes the messages of this turn not yet in the transcript (when the turn ends). Direct,
   * not in the group commit: it and the turn row are written in the same tick the terminal
   * event reached the listeners, so a client that saw the turn end never finds it running.
   */
  appendMessages(all: ModelMessage[]): void {
    const rows = this.rows(all);
    insertMessages(this.db, rows);
    this.persistedMessages = Math.max(this.persistedMessages, all.length);
  }

  private rows(all: ModelMessage[]) {
    const fresh = all.slice(this.persistedMessages);
    const at = this.now();
    return fresh.map((m) => ({
      sessionId: this.sessionId,
      turnId: this.turnId,
      role: m.role,
      content: m.content,
      toolCalls: m.role === "assistant" ? (m.toolCalls ?? null) : null,
      callId: m.role === "tool" ? m.callId : null,
      tool: m.role === "tool" ? m.tool : null,
      createdAt: at,
    }));
  }
}

function lastAssistant(messages: ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.role === "assistant") return i;
  return messages.length;
}
