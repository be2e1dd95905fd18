import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../database";
import type { CallJournalRow, JournaledOutcome, JournaledStart, StoredCheckpoint } from "../schema";
import { holdsRows, holdUpdate, type HeldUpdate } from "./held-rows";
import { param, rawParam } from "./prepared";
import { insertMessages, type NewMessage } from "./transcripts";

/** The checkpoint row of a turn, or undefined (a turn from before checkpoints existed). */
export function getCheckpoint(db: Db, turnId: string) {
  const { checkpoints } = db.t;
  return db.get(db.orm.select().from(checkpoints).where(eq(checkpoints.turnId, turnId)));
}

/**
 * Writes a turn's checkpoint and appends the transcript messages it closed, in one
 * transaction: the transcript never holds a message its checkpoint does not.
 */
export async function saveCheckpoint(
  db: Db,
  params: { turnId: string; state: StoredCheckpoint; messages: NewMessage[]; now?: number },
): Promise<void> {
  // In a transaction already (the group commit's): its own would only add a savepoint.
  if (!db.inTransaction) return db.transaction((tx) => saveCheckpoint(tx, params));
  const now = params.now ?? Date.now();
  if (holdsRows(db)) {
    const state = JSON.stringify(params.state);
    holdUpdate(db, CHECKPOINT_STATE, { turn_id: params.turnId, step: params.state.step, state, updated_at: now });
    await insertMessages(db, params.messages);
    return;
  }
  const update = db.prepared("checkpoints.save", (o, t) =>
    o
      .update(t.checkpoints)
      .set({ step: rawParam("step"), state: rawParam("state"), updatedAt: rawParam("now") })
      .where(eq(t.checkpoints.turnId, param("turnId"))),
  );
  await update.run({ turnId: params.turnId, step: params.state.step, state: JSON.stringify(params.state), now });
  await insertMessages(db, params.messages);
}

/** A checkpoint's step and state, as saveCheckpoint holds them until the commit (held-rows.ts). */
const CHECKPOINT_STATE: HeldUpdate = {
  name: "checkpoints",
  key: ["turn_id", "text"],
  columns: [
    ["step", "bigint"],
    ["state", "text"],
    ["updated_at", "bigint"],
  ],
};

/** Whether a turn has a call record (trace row) for this provider call id. */
export async function hasToolCallRecord(db: Db, params: { turnId: string; callId: string }): Promise<boolean> {
  const { toolCalls } = db.t;
  const row = await db.get(
    db.orm
      .select({ id: toolCalls.id })
      .from(toolCalls)
      .where(and(eq(toolCalls.turnId, params.turnId), eq(toolCalls.callId, params.callId)))
      .limit(1),
  );
  return row !== undefined;
}

/**
 * Journals a call as started (before it is sent), with what it is about to send (`sent`, its
 * masked request: the trace keeps it if the outcome is lost). Idempotent for the same identity.
 */
export async function journalStarted(
  db: Db,
  row: Pick<CallJournalRow, "turnId" | "identity" | "step" | "position" | "tool" | "callId"> & {
    sent?: JournaledStart["sent"];
    now?: number;
  },
): Promise<void> {
  const insert = db.prepared("call_journal.started", (o, { callJournal }) =>
    o
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
      .onConflictDoNothing(),
  );
  const outcome = row.sent ? JSON.stringify({ sent: row.sent } satisfies JournaledStart) : null;
  await insert.run({
    turnId: row.turnId,
    identity: row.identity,
    step: row.step,
    position: row.position,
    tool: row.tool,
    callId: row.callId,
    outcome,
    now: row.now ?? Date.now(),
  });
}

/** Journals a call's final outcome (creating the row when the call was never started: a refusal). */
export async function journalCompleted(
  db: Db,
  row: Pick<CallJournalRow, "turnId" | "identity" | "step" | "position" | "tool" | "callId"> & {
    outcome: JournaledOutcome;
    now?: number;
  },
): Promise<void> {
  const upsert = db.prepared("call_journal.completed", (o, { callJournal }) =>
    o
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
      .onConflictDoUpdate({
        target: [callJournal.turnId, callJournal.identity],
        set: { status: "completed", outcome: rawParam("outcome"), completedAt: rawParam("now") },
      }),
  );
  const { turnId, identity, step, position, tool, callId } = row;
  await upsert.run({
    turnId,
    identity,
    step,
    position,
    tool,
    callId,
    outcome: JSON.stringify(row.outcome),
    now: row.now ?? Date.now(),
  });
}

/** Every journaled call of a turn, in order of (step, position). */
export function listJournal(db: Db, turnId: string): Promise<CallJournalRow[]> {
  const { callJournal } = db.t;
  return db.all(
    db.orm
      .select()
      .from(callJournal)
      .where(eq(callJournal.turnId, turnId))
      .orderBy(asc(callJournal.step), asc(callJournal.position)),
  );
}

/** How many transcript messages a turn has (the user message included). */
export async function countTurnMessages(db: Db, turnId: string): Promise<number> {
  // messages is indexed by session, not by turn: go through the turn's session, so the
  // count reads that session's messages instead of scanning every message ever written.
  const query = db.prepared("messages.countTurn", (o, { messages, turns }) =>
    o
      .select({ n: count() })
      .from(messages)
      .where(
        and(
          eq(messages.sessionId, sql`(select ${turns.sessionId} from ${turns} where ${turns.id} = ${param("turnId")})`),
          eq(messages.turnId, param("turnId")),
        ),
      ),
  );
  return (await query.get({ turnId }))?.n ?? 0;
}

/** The last event recorded for a turn, or undefined. */
export function lastTurnEvent(db: Db, turnId: string) {
  const { events } = db.t;
  return db.get(db.orm.select().from(events).where(eq(events.turnId, turnId)).orderBy(desc(events.seq)).limit(1));
}

/** Creates a checkpoint row for a turn that has none (a turn from before checkpoints existed). */
export async function ensureCheckpoint(
  db: Db,
  params: { turnId: string; userMessage: string; now?: number },
): Promise<void> {
  const { checkpoints } = db.t;
  const state = { turnId: params.turnId, step: -1, messages: [{ role: "user" as const, content: params.userMessage }] };
  await db.run(
    db.orm
      .insert(checkpoints)
      .values({
        turnId: params.turnId,
        step: -1,
        state,
        depth: 0,
        runnerPid: null,
        updatedAt: params.now ?? Date.now(),
      })
      .onConflictDoNothing(),
  );
}
