import { and, asc, count, desc, eq, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db, Orm, Tables } from "../database";
import type { CallJournalRow, JournaledOutcome, JournaledStart, StoredCheckpoint } from "../schema";
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
  const now = params.now ?? Date.now();
  await db.transaction(async (tx) => {
    const update = tx.prepared("checkpoints.save", (o, t) =>
      o
        .update(t.checkpoints)
        .set({ step: rawParam("step"), state: rawParam("state"), updatedAt: rawParam("now") })
        .where(eq(t.checkpoints.turnId, param("turnId"))),
    );
    await update.run({ turnId: params.turnId, step: params.state.step, state: JSON.stringify(params.state), now });
    await insertMessages(tx, params.messages);
  });
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
export async function claimTurn(db: Db, params: LeaseClaim & { from: "waiting" | "running" }): Promise<boolean> {
  const lease = {
    instance: params.instance,
    pid: params.pid,
    now: params.now,
    until: params.now + params.leaseMs,
    turnId: params.turnId,
  };
  if (params.from === "running")
    return (await db.prepared("checkpoints.claimRunning", claimRunningStatement).run(lease)) === 1;
  return db.transaction(async (tx) => {
    const { turns, checkpoints } = tx.t;
    const flipped = await tx.run(
      tx.orm
        .update(turns)
        .set({ status: "running", endedAt: null })
        .where(and(eq(turns.id, params.turnId), eq(turns.status, "waiting"))),
    );
    if (flipped !== 1) return false;
    await tx.run(
      tx.orm
        .update(checkpoints)
        .set({
          runnerInstance: lease.instance,
          runnerPid: lease.pid,
          leaseExpiresAt: lease.until,
          updatedAt: lease.now,
        })
        .where(eq(checkpoints.turnId, params.turnId)),
    );
    return true;
  });
}

function claimRunningStatement(o: Orm, { checkpoints, turns }: Tables) {
  const free = or(
    isNull(checkpoints.runnerInstance),
    eq(checkpoints.runnerInstance, param("instance")),
    isNull(checkpoints.leaseExpiresAt),
    lte(checkpoints.leaseExpiresAt, rawParam("now")),
  );
  const running = sql`exists (select 1 from ${turns} where ${turns.id} = ${checkpoints.turnId} and ${turns.status} = 'running')`;
  return o
    .update(checkpoints)
    .set({
      runnerInstance: rawParam("instance"),
      runnerPid: rawParam("pid"),
      leaseExpiresAt: rawParam("until"),
      updatedAt: rawParam("now"),
    })
    .where(and(eq(checkpoints.turnId, param("turnId")), free, running));
}

/**
 * The owner's heartbeat: pushes the lease of each of `turnIds` that `instance` still holds
 * to `until`. Returns how many it renewed (fewer than asked: a lease was taken over).
 */
export async function renewLeases(
  db: Db,
  params: { instance: string; turnIds: string[]; until: number },
): Promise<number> {
  if (params.turnIds.length === 0) return 0;
  const renew = db.prepared("checkpoints.renewLeases", (o, { checkpoints }) =>
    o
      .update(checkpoints)
      .set({ leaseExpiresAt: rawParam("until") })
      .where(and(eq(checkpoints.runnerInstance, param("instance")), inJsonList(db, checkpoints.turnId, "ids"))),
  );
  return renew.run({ instance: params.instance, ids: JSON.stringify(params.turnIds), until: params.until });
}

/** `column in (the strings of the JSON array bound to the named parameter)`, in this dialect. */
function inJsonList(db: Db, column: SQLiteColumn, name: string): SQL {
  return db.dialect === "postgres"
    ? sql`${column} in (select jsonb_array_elements_text(cast(${param(name)} as text)::jsonb))`
    : sql`${column} in (select value from json_each(${param(name)}))`;
}

/** Whether `instance` still owns the turn (the fence every write of a run checks first). */
export async function holdsLease(db: Db, params: { turnId: string; instance: string }): Promise<boolean> {
  if (db.dialect === "postgres" && db.inTransaction) {
    // FOR SHARE: a takeover (claimTurn's UPDATE) waits until this transaction commits, so the
    // owner's writes in it land before the new owner's, never after.
    const [row] = await db.execute<{ instance: string | null }>(
      sql`select runner_instance as instance from checkpoints where turn_id = ${params.turnId} for share`,
    );
    return row?.instance === params.instance;
  }
  const owner = db.prepared("checkpoints.owner", (o, { checkpoints }) =>
    o
      .select({ instance: checkpoints.runnerInstance })
      .from(checkpoints)
      .where(eq(checkpoints.turnId, param("turnId"))),
  );
  return (await owner.get({ turnId: params.turnId }))?.instance === params.instance;
}

/**
 * The turns a resume pass may take over now: running ones whose lease has expired (or that
 * never had one), and waiting ones with no pending approval left (decided or expired
 * while no process picked them up). A candidate list only: claimTurn decides.
 */
export async function listResumableTurns(
  db: Db,
  now: number,
): Promise<{ id: string; status: "running" | "waiting" }[]> {
  const { approvals, checkpoints, turns } = db.t;
  const expired = sql`(${checkpoints.turnId} is null or ${checkpoints.leaseExpiresAt} is null or ${checkpoints.leaseExpiresAt} <= ${now})`;
  const decided = sql`not exists (select 1 from ${approvals} where ${approvals.turnId} = ${turns.id} and ${approvals.status} = 'pending' and ${approvals.expiresAt} > ${now})`;
  return (await db.all(
    db.orm
      .select({ id: turns.id, status: turns.status })
      .from(turns)
      .leftJoin(checkpoints, eq(checkpoints.turnId, turns.id))
      .where(or(and(eq(turns.status, "running"), expired), and(eq(turns.status, "waiting"), decided)))
      .orderBy(asc(turns.startedAt))
      .limit(500),
  )) as { id: string; status: "running" | "waiting" }[];
}

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
