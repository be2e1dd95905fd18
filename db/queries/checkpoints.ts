import { and, asc, count, desc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../client";
import {
  approvals,
  callJournal,
  checkpoints,
  events,
  messages,
  toolCalls,
  turns,
  type CallJournalRow,
  type JournaledOutcome,
  type JournaledStart,
  type StoredCheckpoint,
} from "../schema";
import { param, prepared, rawParam, transaction } from "./prepared";
import { insertMessages } from "./transcripts";

type NewMessage = Omit<typeof messages.$inferInsert, "id">;

/** The checkpoint row of a turn, or undefined (a turn from before checkpoints existed). */
export function getCheckpoint(db: Db, turnId: string) {
  return db.select().from(checkpoints).where(eq(checkpoints.turnId, turnId)).get();
}

/**
 * Writes a turn's checkpoint and appends the transcript messages it closed, in one
 * transaction: the transcript never holds a message its checkpoint does not.
 */
export function saveCheckpoint(
  db: Db,
  params: { turnId: string; state: StoredCheckpoint; messages: NewMessage[]; now?: number },
) {
  const now = params.now ?? Date.now();
  const update = prepared(db, "checkpoints.save", (d) =>
    d
      .update(checkpoints)
      .set({ step: rawParam("step"), state: rawParam("state"), updatedAt: rawParam("now") })
      .where(eq(checkpoints.turnId, param("turnId")))
      .prepare(),
  );
  const write = transaction(db, "saveCheckpoint", (p: typeof params, now: number) => {
    update.run({ turnId: p.turnId, step: p.state.step, state: JSON.stringify(p.state), now });
    insertMessages(db, p.messages);
  });
  write(params, now);
}

/** Who claims a turn, and until when its lease holds (turn-leases.ts). */
export interface LeaseClaim {
  turnId: string;
  /** The claiming process start's instance id. */
  instance: string;
  /** Informational: shown to an operator, never used to decide ownership. */
  pid: number;
  now: number;
  leaseMs: number;
}

/**
 * Takes over a turn for this process, atomically, so two processes never run it at once.
 * A waiting turn is claimed by flipping it to running (the flip is the compare-and-swap).
 * A running turn is claimed by one UPDATE that succeeds only while the turn is running and
 * its lease is free: no owner, an owner whose lease has expired, or this same instance (a
 * run of ours that ended without closing the row). Whoever loses sees 0 rows changed:
 * there is no read-then-write window. False: the turn is not free (someone else holds it).
 */
export function claimTurn(db: Db, params: LeaseClaim & { from: "waiting" | "running" }): boolean {
  const lease = {
    instance: params.instance,
    pid: params.pid,
    now: params.now,
    until: params.now + params.leaseMs,
    turnId: params.turnId,
  };
  if (params.from === "running")
    return prepared(db, "checkpoints.claimRunning", claimRunningStatement).run(lease).changes === 1;
  return db.transaction((tx) => {
    const flipped = tx
      .update(turns)
      .set({ status: "running", endedAt: null })
      .where(and(eq(turns.id, params.turnId), eq(turns.status, "waiting")))
      .run();
    if (flipped.changes !== 1) return false;
    tx.update(checkpoints)
      .set({ runnerInstance: lease.instance, runnerPid: lease.pid, leaseExpiresAt: lease.until, updatedAt: lease.now })
      .where(eq(checkpoints.turnId, params.turnId))
      .run();
    return true;
  });
}

function claimRunningStatement(d: Db) {
  const free = or(
    isNull(checkpoints.runnerInstance),
    eq(checkpoints.runnerInstance, param("instance")),
    isNull(checkpoints.leaseExpiresAt),
    lte(checkpoints.leaseExpiresAt, rawParam("now")),
  );
  const running = sql`exists (select 1 from ${turns} where ${turns.id} = ${checkpoints.turnId} and ${turns.status} = 'running')`;
  return d
    .update(checkpoints)
    .set({
      runnerInstance: rawParam("instance"),
      runnerPid: rawParam("pid"),
      leaseExpiresAt: rawParam("until"),
      updatedAt: rawParam("now"),
    })
    .where(and(eq(checkpoints.turnId, param("turnId")), free, running))
    .prepare();
}

/**
 * The owner's heartbeat: pushes the lease of each of `turnIds` that `instance` still holds
 * to `until`. Returns how many it renewed (fewer than asked: a lease was taken over).
 */
export function renewLeases(db: Db, params: { instance: string; turnIds: string[]; until: number }): number {
  if (params.turnIds.length === 0) return 0;
  const renew = prepared(db, "checkpoints.renewLeases", (d) =>
    d
      .update(checkpoints)
      .set({ leaseExpiresAt: rawParam("until") })
      .where(
        and(
          eq(checkpoints.runnerInstance, param("instance")),
          sql`${checkpoints.turnId} in (select value from json_each(${param("ids")}))`,
        ),
      )
      .prepare(),
  );
  return renew.run({ instance: params.instance, ids: JSON.stringify(params.turnIds), until: params.until }).changes;
}

/** Whether `instance` still owns the turn (the fence every write of a run checks first). */
export function holdsLease(db: Db, params: { turnId: string; instance: string }): boolean {
  const owner = prepared(db, "checkpoints.owner", (d) =>
    d
      .select({ instance: checkpoints.runnerInstance })
      .from(checkpoints)
      .where(eq(checkpoints.turnId, param("turnId")))
      .prepare(),
  );
  return owner.get({ turnId: params.turnId })?.instance === params.instance;
}

/**
 * The turns a resume pass may take over now: running ones whose lease has expired (or that
 * never had one), and waiting ones with no pending approval left (decided or expired
 * while no process picked them up). A candidate list only: claimTurn decides.
 */
export function listResumableTurns(db: Db, now: number): { id: string; status: "running" | "waiting" }[] {
  const expired = sql`(${checkpoints.turnId} is null or ${checkpoints.leaseExpiresAt} is null or ${checkpoints.leaseExpiresAt} <= ${now})`;
  const decided = sql`not exists (select 1 from ${approvals} where ${approvals.turnId} = ${turns.id} and ${approvals.status} = 'pending' and ${approvals.expiresAt} > ${now})`;
  return db
    .select({ id: turns.id, status: turns.status })
    .from(turns)
    .leftJoin(checkpoints, eq(checkpoints.turnId, turns.id))
    .where(or(and(eq(turns.status, "running"), expired), and(eq(turns.status, "waiting"), decided)))
    .orderBy(asc(turns.startedAt))
    .limit(500)
    .all() as { id: string; status: "running" | "waiting" }[];
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
  row: Pick<CallJournalRow, "turnId" | "identity" | "step" | "position" | "tool" | "callId"> & {
    sent?: JournaledStart["sent"];
    now?: number;
  },
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
  insert.run({
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
export function journalCompleted(
  db: Db,
  row: Pick<CallJournalRow, "turnId" | "identity" | "step" | "position" | "tool" | "callId"> & {
    outcome: JournaledOutcome;
    now?: number;
  },
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
      .onConflictDoUpdate({
        target: [callJournal.turnId, callJournal.identity],
        set: { status: "completed", outcome: rawParam("outcome"), completedAt: rawParam("now") },
      })
      .prepare(),
  );
  const { turnId, identity, step, position, tool, callId } = row;
  upsert.run({
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
export function listJournal(db: Db, turnId: string): CallJournalRow[] {
  return db
    .select()
    .from(callJournal)
    .where(eq(callJournal.turnId, turnId))
    .orderBy(asc(callJournal.step), asc(callJournal.position))
    .all();
}

/** How many transcript messages a turn has (the user message included). */
export function countTurnMessages(db: Db, turnId: string): number {
  // messages is indexed by session, not by turn: go through the turn's session, so the
  // count reads that session's messages instead of scanning every message ever written.
  const query = prepared(db, "messages.countTurn", (d) =>
    d
      .select({ n: count() })
      .from(messages)
      .where(
        and(
          eq(messages.sessionId, sql`(select ${turns.sessionId} from ${turns} where ${turns.id} = ${param("turnId")})`),
          eq(messages.turnId, param("turnId")),
        ),
      )
      .prepare(),
  );
  return query.get({ turnId })?.n ?? 0;
}

/** The last event recorded for a turn, or undefined. */
export function lastTurnEvent(db: Db, turnId: string) {
  return db.select().from(events).where(eq(events.turnId, turnId)).orderBy(desc(events.seq)).limit(1).get();
}

/** Creates a checkpoint row for a turn that has none (a turn from before checkpoints existed). */
export function ensureCheckpoint(db: Db, params: { turnId: string; userMessage: string; now?: number }) {
  const state = { turnId: params.turnId, step: -1, messages: [{ role: "user" as const, content: params.userMessage }] };
  db.insert(checkpoints)
    .values({ turnId: params.turnId, step: -1, state, depth: 0, runnerPid: null, updatedAt: params.now ?? Date.now() })
    .onConflictDoNothing()
    .run();
}
