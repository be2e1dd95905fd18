/**
 * Leases of running turns (lib/services/turns/turn-leases.ts): the atomic claim of a turn,
 * the owner's renewal and release, the fence every write of a run checks, what only the owner
 * may still write (a failed recording's end), and the turns a resume pass may take over.
 */
import { and, asc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db, Orm, Tables } from "../database";
import { param, rawParam, storableText } from "./prepared";
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

/**
 * A stopping owner gives its turns up: each lease `instance` holds on a running turn expires at
 * `now`, so the next resume pass of any process (this one's next start included) takes the turn
 * over instead of waiting out the lease. The owner stays recorded until a claim replaces it:
 * until then its own writes still pass the fence, as under any expired lease. Returns how many
 * it gave up.
 */
export async function releaseLeases(db: Db, params: { instance: string; now: number }): Promise<number> {
  const release = db.prepared("checkpoints.releaseLeases", (o, { checkpoints, turns }) =>
    o
      .update(checkpoints)
      .set({ leaseExpiresAt: rawParam("now") })
      .where(
        and(
          eq(checkpoints.runnerInstance, param("instance")),
          gt(checkpoints.leaseExpiresAt, param("now")),
          // Through the turns' status index: the few running turns, not every checkpoint kept.
          inArray(checkpoints.turnId, o.select({ id: turns.id }).from(turns).where(eq(turns.status, "running"))),
        ),
      ),
  );
  return release.run({ instance: params.instance, now: params.now });
}

/**
 * Closes a running turn as failed, only while `instance` still owns it (its checkpoint names
 * it as the runner): a run whose recording failed must not close a turn another process has
 * taken over meanwhile. False when it did not (taken over, or no longer running).
 */
export async function failTurnIfOwned(
  db: Db,
  params: { id: string; instance: string; error: string; now?: number },
): Promise<boolean> {
  const fail = db.prepared("turns.failIfOwned", (o, { turns, checkpoints }) =>
    o
      .update(turns)
      .set({ status: "failed", error: rawParam("error"), endedAt: rawParam("endedAt") })
      .where(
        and(
          eq(turns.id, param("id")),
          eq(turns.status, "running"),
          sql`exists (select 1 from ${checkpoints} where ${checkpoints.turnId} = ${turns.id} and ${checkpoints.runnerInstance} = ${param("instance")})`,
        ),
      ),
  );
  const changed = await fail.run({
    id: params.id,
    instance: params.instance,
    error: storableText(db, params.error),
    endedAt: params.now ?? Date.now(),
  });
  return changed === 1;
}

/**
 * `column` is one of the strings of the JSON array bound to the named parameter, in this dialect.
 * On PostgreSQL the list is made an array first (`= any(array(…))`, an init plan) so that the
 * column's index is searched for each: the planner turns `in (select jsonb_array_elements_text(…))`
 * into a semi-join (over a scan of the whole table, up to a few thousand rows), and this runs
 * per flush and per heartbeat.
 */
function inJsonList(db: Db, column: SQLiteColumn, name: string): SQL {
  return db.dialect === "postgres"
    ? sql`${column} = any(${pgTextArray(param(name))})`
    : sql`${column} in (select value from json_each(${param(name)}))`;
}

/** The strings of a JSON array (text bound as `value`) as a PostgreSQL text[]. */
function pgTextArray(value: unknown): SQL {
  return sql`array(select jsonb_array_elements_text(cast(${value} as text)::jsonb))`;
}

/**
 * Which of `turnIds` `instance` still owns: the fence of a group-commit flush, one statement for
 * every turn with a write in it. On PostgreSQL, in a transaction, the rows are locked FOR SHARE:
 * a takeover (claimTurn's UPDATE) waits until the flush commits, so the owner's writes in it
 * land before the new owner's, never after.
 */
export async function heldLeases(db: Db, params: { instance: string; turnIds: string[] }): Promise<Set<string>> {
  if (params.turnIds.length === 0) return new Set();
  const ids = JSON.stringify(params.turnIds);
  if (db.dialect === "postgres") {
    const rows = await db.execute<{ turn_id: string }>(
      sql`select turn_id from checkpoints where runner_instance = ${params.instance} and turn_id = any(${pgTextArray(ids)})${db.inTransaction ? sql` for share` : sql``}`,
    );
    return new Set(rows.map((row) => row.turn_id));
  }
  const held = db.prepared("checkpoints.heldLeases", (o, { checkpoints }) =>
    o
      .select({ turnId: checkpoints.turnId })
      .from(checkpoints)
      .where(and(eq(checkpoints.runnerInstance, param("instance")), inJsonList(db, checkpoints.turnId, "ids"))),
  );
  return new Set((await held.all({ instance: params.instance, ids })).map((row) => row.turnId));
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
