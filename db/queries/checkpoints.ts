import { and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../client";
import { callJournal, checkpoints, events, messages, toolCalls, turns, type CallJournalRow, type JournaledOutcome, type JournaledStart, type StoredCheckpoint } from "../schema";
import { param, prepared, rawParam, transaction } from "./prepared";
import { insertMessages } from "./sessions";

type NewMessage = Omit<typeof messages.$inferInsert, "id">;

/** The checkpoint row of a turn, or undefined (a turn from before checkpoints existed). */
export function getCheckpoint(db: Db, turnId: string) {
  return db.select().from(checkpoints).where(eq(checkpoints.turnId, turnId)).get();
}

/**
 * Writes a turn's checkpoint and appends the transcript messages it closed, in one
 * transaction: the transcript never holds a message its checkpoint does not.
 */
export function saveCheckpoint(db: Db, params: { turnId: string; state: StoredCheckpoint; messages: NewMessage[]; now?: number }) {
  const now = params.now ?? Date.now();
  const update = prepared(db, "checkpoints.save", (d) =>
    d.update(checkpoints).set({ step: rawParam("step"), state: rawParam("state"), updatedAt: rawParam("now") }).where(eq(checkpoints.turnId, param("turnId"))).prepare(),
  );
  const write = transaction(db, "saveCheckpoint", (p: typeof params, now: number) => {
    update.run({ turnId: p.turnId, step: p.state.step, state: JSON.stringify(p.state), now });
    insertMessages(db, p.messages);
  });
  write(params, now);
}

/**
 * Takes over a turn for this process, atomically, so two processes never both resume it: a
 * waiting turn is claimed by flipping it to running; an interrupted (running) turn by a
 * compare-and-swap of runner_pid from the dead runner's `expectedPid`. False: someone else won.
 */
export function claimTurn(
  db: Db,
  params: { turnId: string; pid: number; from: "waiting" } | { turnId: string; pid: number; from: "running"; expectedPid: number | null },
): boolean {
  const now = Date.now();
  return db.transaction((tx) => {
    if (params.from === "waiting") {
      const flipped = tx
        .update(turns)
        .set({ status: "running", endedAt: null })
        .where(and(eq(turns.id, params.turnId), eq(turns.status, "waiting")))
        .run();
      if (flipped.changes !== 1) return false;
      tx.update(checkpoints).set({ runnerPid: params.pid, updatedAt: now }).where(eq(checkpoints.turnId, params.turnId)).run();
      return true;
    }
    const runner = params.expectedPid === null ? isNull(checkpoints.runnerPid) : eq(checkpoints.runnerPid, params.expectedPid);
    const swapped = tx
      .update(checkpoints)
      .set({ runnerPid: params.pid, updatedAt: now })
      .where(and(eq(checkpoints.turnId, params.turnId), runner))
      .run();
    return swapped.changes === 1;
  });
}

/** Whether a turn has a call record (trace row) for this provider call id. */
export function hasToolCallRecord(db: Db, params: { turnId: string; callId: string }): boolean {
  return (
    db
      .select({ id: toolCalls.id })
      .from(toolCalls)
      .where(and(eq(toolCalls.turnId, params.turnId), eq(toolCalls.callId, params.callId)))
      .limit(1)
      .get() !== undefined
  );
}

/**
 * Journals a call as started (before it is sent), with what it is about to send (`sent`, its
 * masked request: the trace keeps it if the outcome is lost). Idempotent for the same identity.
 */
export function journalStarted(
  db: Db,
  row: Pick<CallJournalRow, "turnId" | "identity" | "step" | "position" | "tool" | "callId"> & { sent?: JournaledStart["sent"]; now?: number },
) {
  const insert = prepared(db, "call_journal.started", (d) =>
    d
      .insert(callJournal)
      .values({
        turnId: param("turnId"),
        identity: param("identity"),
        step: param("step"),
        position: param("position"),
        tool: param("tool"),
        callId: param("callId"),
        status: "started",
        outcome: rawParam("outcome"),
        startedAt: param("now"),
      })
      .onConflictDoNothing()
      .prepare(),
  );
  const outcome = row.sent ? JSON.stringify({ sent: row.sent } satisfies JournaledStart) : null;
  insert.run({ turnId: row.turnId, identity: row.identity, step: row.step, position: row.position, tool: row.tool, callId: row.callId, outcome, now: row.now ?? Date.now() });
}

/** Journals a call's final outcome (creating the row when the call was never started: a refusal). */
export function journalCompleted(
  db: Db,
  row: Pick<CallJournalRow, "turnId" | "identity" | "step" | "position" | "tool" | "callId"> & { outcome: JournaledOutcome; now?: number },
) {
  const upsert = prepared(db, "call_journal.completed", (d) =>
    d
      .insert(callJournal)
      .values({
        turnId: param("turnId"),
        identity: param("identity"),
        step: param("step"),
        position: param("position"),
        tool: param("tool"),
        callId: param("callId"),
        status: "completed",
        outcome: rawParam("outcome"),
        startedAt: param("now"),
        completedAt: param("now"),
      })
      .onConflictDoUpdate({ target: [callJournal.turnId, callJournal.identity], set: { status: "completed", outcome: rawParam("outcome"), completedAt: rawParam("now") } })
      .prepare(),
  );
  const { turnId, identity, step, position, tool, callId } = row;
  upsert.run({ turnId, identity, step, position, tool, callId, outcome: JSON.stringify(row.outcome), now: row.now ?? Date.now() });
}

/** Every journaled call of a turn, in order of (step, position). */
export function listJournal(db: Db, turnId: string): CallJournalRow[] {
  return db.select().from(callJournal).where(eq(callJournal.turnId, turnId)).orderBy(asc(callJournal.step), asc(callJournal.position)).all();
}

/** How many transcript messages a turn has (the user message included). */
export function countTurnMessages(db: Db, turnId: string): number {
  // messages is indexed by session, not by turn: go through the turn's session, so the
  // count reads that session's messages instead of scanning every message ever written.
  const query = prepared(db, "messages.countTurn", (d) =>
    d
      .select({ n: count() })
      .from(messages)
      .where(and(eq(messages.sessionId, sql`(select ${turns.sessionId} from ${turns} where ${turns.id} = ${param("turnId")})`), eq(messages.turnId, param("turnId"))))
      .prepare(),
  );
  return query.get({ turnId })?.n ?? 0;
}

/** The last event recorded for a turn, or undefined. */
export function lastTurnEvent(db: Db, turnId: string) {
  return db.select().from(events).where(eq(events.turnId, turnId)).orderBy(desc(events.seq)).limit(1).get();
}

/** Creates a checkpoint row for a turn that has none (a turn from before checkpoints existed). */
export function ensureCheckpoint(db: Db, params: { turnId: string; userMessage: string; runnerPid: number | null; now?: number }) {
  const state = { turnId: params.turnId, step: -1, messages: [{ role: "user" as const, content: params.userMessage }] };
  db.insert(checkpoints)
    .values({ turnId: params.turnId, step: -1, state, depth: 0, runnerPid: params.runnerPid, updatedAt: params.now ?? Date.now() })
    .onConflictDoNothing()
    .run();
}
