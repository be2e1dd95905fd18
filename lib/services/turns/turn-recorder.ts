/**
 * Persistence behind the engine's ports for one turn: every event is written
 * the moment it is emitted (with the call record of each tool result), each call
 * is journaled before it is sent (with what it sends, masked) and when its result is final, and the checkpoint
 * and transcript are written together at each checkpoint, so a crash loses
 * nothing already emitted and a resume knows exactly where the turn stood (DESIGN D9).
 * The terminal event is the exception: it is held until `end()`, which writes it with
 * the rest of the transcript and the turn row in one commit, so whoever sees a turn end
 * (a listener, the crash hook, a reader of the database) finds it ended everywhere.
 *
 * Writes go through the process's group commit (group-commit.ts): the writes of all turns
 * issued within one tick share one transaction, and each port call resolves only once its
 * write is committed. The engine awaits the ones it must (a call's journal row before it
 * sends the call, a result, the end), and listeners (and the crash hook) see an event only
 * after its commit, in emission order.
 */
import type { Db } from "@/db/database";
import {
  countTurnMessages,
  hasToolCallRecord,
  journalCompleted,
  journalStarted,
  saveCheckpoint,
} from "@/db/queries/checkpoints";
import { recordTurnEnd } from "@/db/queries/turns";
import { insertEvent, insertToolResult, lastEventSeq, TURN_EVENTS_CHANNEL } from "@/db/queries/traces";
import type { StoredCheckpoint } from "@/db/schema";
import {
  isTerminalEvent,
  type CheckpointStore,
  type CompletedCall,
  type EngineEvent,
  type EventSink,
  type ModelMessage,
  type StartedCall,
  type TurnCheckpoint,
} from "@/lib/engine/ports";
import type { RunTurnResult } from "@/lib/engine/run-turn";
import type { CallDescriber } from "./sent-call-record";
import { groupCommit, type FlushCheck } from "./group-commit";
import { leaseFence } from "./lease-fence";
import { toolCallRow, type ToolResultSummary } from "./tool-call-row";

export type EventListener = (event: EngineEvent & { seq: number; at: number }) => void;

export interface RecorderOptions {
  now?: () => number;
  /** Called after each event is persisted (the scripted provider's crash points use it). */
  afterEvent?: (event: EngineEvent) => void;
  /** A turn just created: nothing recorded yet but its user message (saves reading it back). */
  fresh?: boolean;
  /**
   * The lease this run holds (turn-leases.ts): every write first checks that the turn is
   * still this instance's, in the same transaction, and throws LeaseLostError if not.
   */
  lease?: { instance: string };
  /**
   * Whether a tool has side effects: the journal rows of such a call are committed with
   * synchronous=FULL (they must survive power loss; group-commit.ts). Unknown tools count as
   * side-effecting.
   */
  sideEffect?: (tool: string) => boolean;
  /** What a call is about to send (masked), journaled with its start; absent = not recorded. */
  describeCall?: CallDescriber;
}

interface HeldEvent {
  event: EngineEvent;
  seq: number;
  at: number;
}

export class TurnRecorder implements EventSink, CheckpointStore {
  private seq: number;
  /** Messages of this turn already in the transcript (the user message is written with the turn). */
  private persistedMessages: number;
  private listeners = new Set<EventListener>();
  private readonly now: () => number;
  /** The last checkpoint saved by this run (where a waiting turn stopped). */
  lastCheckpoint: TurnCheckpoint | undefined;
  /** The terminal event, held until end() writes it with the turn row. */
  private terminal: HeldEvent | undefined;
  /** The run's final checkpoint (the one that says how it ended), held for end() likewise. */
  private finalCheckpoint: StoredCheckpoint | undefined;
  /** The lease fence every write of this run passes (none without a lease). */
  private readonly fence: FlushCheck | undefined;

  private constructor(
    private readonly db: Db,
    private readonly turnId: string,
    private readonly sessionId: string,
    private readonly options: RecorderOptions,
    recorded: { seq: number; messages: number },
  ) {
    this.now = options.now ?? Date.now;
    this.fence = options.lease ? leaseFence(options.lease.instance, turnId) : undefined;
    this.seq = recorded.seq;
    this.persistedMessages = recorded.messages;
  }

  /** A recorder for a turn, continuing its event numbering and transcript where they stand. */
  static async open(db: Db, turnId: string, sessionId: string, options: RecorderOptions = {}): Promise<TurnRecorder> {
    const recorded = options.fresh
      ? { seq: 0, messages: 1 }
      : { seq: await lastEventSeq(db, turnId), messages: Math.max(1, await countTurnMessages(db, turnId)) };
    return new TurnRecorder(db, turnId, sessionId, options, recorded);
  }

  /** Runs `write` in the group commit, fenced on this run's lease. */
  private commit<T>(write: (tx: Db) => Promise<T>, options: { durable?: boolean; events?: boolean } = {}): Promise<T> {
    // A write of events tells the turn's followers on every instance (GET /v1/turns/:id/events).
    const notify = options.events ? ([TURN_EVENTS_CHANNEL, this.turnId] as const) : undefined;
    return groupCommit(this.db, write, {
      durable: options.durable === true,
      notify,
      ...(this.fence ? { check: this.fence } : {}),
    });
  }

  /** Adds a live listener (the SSE stream); returns its remover. */
  listen(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Persists `event`; resolves once it is committed (then the crash hook and listeners see it).
   * Its write is queued before this returns, and the group commit keeps that order, so events
   * emitted in a burst (a step's text) share a commit and still land in emission order.
   * A terminal event is only held here: end() writes it.
   */
  async emit(event: EngineEvent): Promise<void> {
    const at = this.now();
    const seq = (this.seq += 1);
    if (isTerminalEvent(event.type)) {
      this.terminal = { event, seq, at };
      return;
    }
    const { type, ...data } = event;
    if (type === "tool_result") {
      const { record, ...summary } = data as Extract<EngineEvent, { type: "tool_result" }>;
      // The call record and its event commit together: one write instead of two, and a
      // crash cannot keep one without the other.
      await this.commit(
        async (tx) =>
          insertToolResult(tx, {
            call: await this.callRecord(tx, summary, record, at),
            event: { turnId: this.turnId, seq, type, data: summary, at },
          }),
        { events: true },
      );
    } else {
      await this.commit((tx) => insertEvent(tx, { turnId: this.turnId, seq, type, data, at }), { events: true });
    }

    this.delivered(event, seq, at);
  }

  /** After its commit: the crash hook, then the live listeners (never the call record). */
  private delivered(event: EngineEvent, seq: number, at: number): void {
    this.options.afterEvent?.(event);
    if (this.listeners.size === 0) return;
    const withoutRecord = event.type === "tool_result" ? { ...event, record: undefined } : event;
    for (const listener of this.listeners) listener({ ...withoutRecord, seq, at });
  }

  /**
   * Ends this run: the final checkpoint and the terminal event (both held), the messages of
   * the turn not yet in the transcript (none for a waiting turn: its checkpoint holds the
   * open batch) and the turn row, in one commit; then the terminal event reaches the crash
   * hook and the listeners. A crash before that commit leaves the turn running at its
   * previous checkpoint: the resume asks the model for the last step again (no tool runs twice).
   */
  async end(result: RunTurnResult): Promise<void> {
    const held = this.terminal;
    const checkpoint = this.finalCheckpoint;
    this.terminal = undefined;
    this.finalCheckpoint = undefined;
    const messages = result.status === "waiting" ? [] : this.rows(result.messages);
    // The failure's code and fault live in the turn_failed event (the turn row has no column for them).
    const turn = {
      id: this.turnId,
      status: result.status,
      content: result.content,
      error: result.error ?? null,
      usage: result.usage ?? null,
    };
    const event = held && {
      turnId: this.turnId,
      seq: held.seq,
      type: held.event.type,
      data: dataOf(held.event),
      at: held.at,
    };
    const now = this.now();
    await this.commit(
      async (tx) => {
        if (checkpoint) await saveCheckpoint(tx, { turnId: this.turnId, state: checkpoint, messages: [], now });
        await recordTurnEnd(tx, { event, messages, turn, now });
      },
      { events: true },
    );

    if (result.status !== "waiting") this.persistedMessages = Math.max(this.persistedMessages, result.messages.length);
    if (held) this.delivered(held.event, held.seq, held.at);
  }

  /** The trace row of a tool result; undefined when a replayed result's row already exists. */
  private async callRecord(tx: Db, summary: ToolResultSummary, record: unknown, at: number) {
    // A replayed result already has its call record, unless the process died between the
    // journal and the record: then the replay fills the gap so the trace has every call.
    if (summary.replayed && (await hasToolCallRecord(tx, { turnId: this.turnId, callId: summary.call_id })))
      return undefined;
    return toolCallRow(this.turnId, summary, record, at);
  }

  async save(checkpoint: TurnCheckpoint): Promise<void> {
    this.lastCheckpoint = checkpoint;
    // An open batch (waiting) keeps its assistant message out of the transcript until the
    // batch closes: a resume rebuilds its tool results, and the transcript must not hold half.
    const closed = checkpoint.batchOpen
      ? checkpoint.messages.slice(0, lastAssistant(checkpoint.messages))
      : checkpoint.messages;
    const { completedCalls: _journaled, ...state } = checkpoint;
    if (checkpoint.end) {
      // The run ends next: this checkpoint is written by end(), with the terminal event.
      this.finalCheckpoint = state as StoredCheckpoint;
      return;
    }
    const params = {
      turnId: this.turnId,
      state: state as StoredCheckpoint,
      messages: this.rows(closed),
      now: this.now(),
    };
    await this.commit((tx) => saveCheckpoint(tx, params));
    this.persistedMessages = Math.max(this.persistedMessages, closed.length);
  }

  /**
   * Journals a call as started; resolves once the row is committed (the engine sends the
   * call only then). For a side-effecting call that commit is durable against power loss.
   */
  callStarted(call: StartedCall): Promise<void> {
    const { arguments: _args, ...place } = call;
    const sent = this.options.describeCall?.(call);
    const row = { turnId: this.turnId, ...place, ...(sent ? { sent: { ...sent } } : {}), now: this.now() };
    return this.commit((tx) => journalStarted(tx, row), { durable: this.sideEffecting(call.tool) });
  }

  callCompleted(call: CompletedCall): Promise<void> {
    const { identity, step, position, callId, tool, ...outcome } = call;
    const row = { turnId: this.turnId, identity, step, position, callId, tool, outcome, now: this.now() };
    return this.commit((tx) => journalCompleted(tx, row), { durable: this.sideEffecting(tool) });
  }

  private sideEffecting(tool: string): boolean {
    return this.options.sideEffect?.(tool) ?? true;
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

function dataOf(event: EngineEvent): Record<string, unknown> {
  const { type: _type, ...data } = event;
  return data;
}

function lastAssistant(messages: ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.role === "assistant") return i;
  return messages.length;
}
