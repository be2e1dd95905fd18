/**
 * How a group-commit flush runs its writes inside its transaction (group-commit.ts).
 *
 * On a database that runs one statement at a time (SQLite: each statement finishes before the
 * call returns), the writes run one after another in the order they were queued.
 *
 * On one whose transaction pipelines (Db.pipelined, PostgreSQL): a statement issued while
 * others are in flight goes out at once instead of after their round trips, so the writes run
 * in lanes at the same time. A lane is the writes that must keep their order, each after the
 * one before: each write names what it keeps its order with (groupCommit's `orderedWith`: a
 * turn's writes fenced on its lease, its turn, by default; a turn's start, its session and its
 * key's rate, turnStartOrder; any other write, the one lane of the rest), and writes sharing
 * a name share a lane. Lanes touch different rows, and none of their callers has seen
 * another's write (a write resolves only at the commit), so any interleaving of the lanes'
 * statements is an order the flush could have been queued in. The server runs them in the
 * order they were sent, on one connection.
 */
import type { Db } from "@/db/database";
import { failsOnlyItsStatement } from "@/db/database-errors";

export interface FlushWrite {
  write: (tx: Db) => Promise<unknown>;
  /** What the write must keep its order with: writes sharing any of these names share a lane. */
  orderedWith: readonly string[];
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** A failure of one write, carried out of the transaction so that it rolls back. */
export class WriteFailed extends Error {
  constructor(readonly index: number) {
    super("a write of the flush failed");
  }
}

/**
 * Runs `writes` in `tx`, skipping those `refused` (by index; their outcome is the refusal).
 * Resolves with every outcome, or throws: WriteFailed when a write failed with an error that
 * leaves the transaction usable (the flush can run again with each write isolated), else the
 * failure itself. On a pipelined transaction it throws only once every lane has stopped, so
 * no write still runs on the transaction after it.
 */
export async function runWrites(
  tx: Db,
  writes: readonly FlushWrite[],
  refused: Map<number, Error>,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array<Outcome>(writes.length);
  const runInOrder = async (indexes: readonly number[]) => {
    for (const i of indexes) {
      const refusal = refused.get(i);
      if (refusal) {
        outcomes[i] = { ok: false, error: refusal };
        continue;
      }
      try {
        outcomes[i] = { ok: true, value: await writes[i]!.write(tx) };
      } catch (error) {
        throw failsOnlyItsStatement(error) ? new WriteFailed(i) : error;
      }
      // A write that ended the transaction: stop before the next one commits alone.
      tx.assertTransactionOpen();
    }
  };
  if (!tx.pipelined) {
    await runInOrder(writes.map((_, i) => i));
    return outcomes;
  }
  const settled = await Promise.allSettled(lanes(writes).map(runInOrder));
  const failures = settled.flatMap((lane) => (lane.status === "rejected" ? [lane.reason as unknown] : []));
  // One write's own failure aborts the transaction, so the lanes still running fail after it
  // with "the transaction is aborted": the flush runs again isolated, as for that one write.
  const own = failures.find((failure) => failure instanceof WriteFailed);
  if (own) throw own;
  if (failures.length > 0) throw failures[0];
  return outcomes;
}

/**
 * The writes' indexes by lane, each lane in queue order: writes that share a name are in one
 * lane, and so, through them, are all the writes of every name they have (a turn start that
 * names its session and its key joins the lanes of both).
 */
export function lanes(writes: readonly FlushWrite[]): number[][] {
  // Union-find over the names: each name points towards its lane's representative.
  const parent = new Map<string, string>();
  const root = (name: string): string => {
    let r = name;
    for (let up = parent.get(r); up !== undefined && up !== r; up = parent.get(r)) r = up;
    parent.set(name, r);
    return r;
  };
  for (const { orderedWith } of writes) {
    const [first = "", ...rest] = orderedWith;
    if (!parent.has(first)) parent.set(first, first);
    for (const name of rest) {
      if (!parent.has(name)) parent.set(name, name);
      parent.set(root(name), root(first));
    }
  }
  const byLane = new Map<string, number[]>();
  writes.forEach(({ orderedWith }, i) => {
    const lane = root(orderedWith[0] ?? "");
    const indexes = byLane.get(lane);
    if (indexes) indexes.push(i);
    else byLane.set(lane, [i]);
  });
  return [...byLane.values()];
}
