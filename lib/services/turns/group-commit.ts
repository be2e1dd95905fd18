/**
 * Group commit: the writes every turn of this process issues within one event-loop tick
 * are committed together, in one SQLite transaction, instead of one commit each. A write
 * is a closure run at flush time, in the order writes were queued; its promise settles
 * only once the transaction that holds it has committed (or failed), so a caller that
 * awaits it never proceeds on a write that is not durable yet (DESIGN D9: the journal row
 * of a call is committed before the call is sent).
 *
 * A write that fails with an error that leaves the transaction usable (a constraint, a bad
 * value) is undone alone and rejects only its own promise; any other failure (the commit
 * itself, a busy or full database) rolls the whole flush back and rejects every write in it.
 * To get there cheaply, a flush first runs all its writes in one plain transaction; only if
 * one throws is that rolled back and the flush run again with a savepoint per write. So a
 * write must touch nothing but the database: it may run twice (its first run undone).
 *
 * Durability: the connection runs with synchronous=NORMAL, which in WAL mode survives a
 * process crash but may lose the last commits on power loss. A write queued `durable` (the
 * journal row of a side-effecting call: losing it would send the call again) makes its
 * flush commit with synchronous=FULL (the WAL is synced at that commit); the flush after
 * goes back to NORMAL. The pragma is set between transactions, where SQLite allows it.
 */
import type { Db } from "@/db/client";
import { prepared } from "@/db/queries/prepared";
import { observeFlush } from "@/lib/observability/insika-metrics";

interface Job {
  write: () => unknown;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

class WriteQueue {
  private jobs: Job[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  /** Queues `write` for this tick's commit; resolves with its result once committed. */
  run<T>(write: () => T, durable = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ write, durable, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const jobs = this.jobs;
    this.jobs = [];
    if (jobs.length === 0) return;
    let outcomes: Outcome[];
    const started = performance.now();
    const durable = jobs.some((job) => job.durable);
    try {
      if (durable) this.db.$client.pragma("synchronous = FULL");
      outcomes = this.commit(jobs);
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    } finally {
      if (durable) restoreNormal(this.db);
      observeFlush((performance.now() - started) / 1000);
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  /** Runs the jobs in one transaction; throws when the whole flush failed. */
  private commit(jobs: Job[]): Outcome[] {
    const client = this.db.$client;
    const fast = prepared(this.db, "transaction:group-commit-fast", (d) =>
      d.$client.transaction((batch: Job[]) =>
        batch.map((job): Outcome => {
          const value = job.write();
          // A write that ended the transaction: stop before the next one autocommits alone.
          if (!client.inTransaction) throw new Error("a write ended the group commit's transaction");
          return { ok: true, value };
        }),
      ),
    );
    try {
      return fast(jobs);
    } catch {
      // Rolled back as a whole: run the flush again, isolating each write.
      return this.commitIsolated(jobs);
    }
  }

  /** The jobs in one transaction, each in a savepoint of its own. */
  private commitIsolated(jobs: Job[]): Outcome[] {
    const client = this.db.$client;
    const one = prepared(this.db, "transaction:group-commit-one", (d) =>
      d.$client.transaction((job: Job) => job.write()),
    );
    const all = prepared(this.db, "transaction:group-commit", (d) =>
      d.$client.transaction((batch: Job[]) =>
        batch.map((job): Outcome => {
          try {
            return { ok: true, value: one(job) };
          } catch (error) {
            // Undone alone only when the transaction is still open and sound; otherwise the flush fails.
            if (!client.inTransaction || !isolatable(error)) throw error;
            return { ok: false, error };
          }
        }),
      ),
    );
    return all(jobs);
  }
}

/** Back to the connection's default after a durable flush (the database may be gone: that is the flush's news). */
function restoreNormal(db: Db): void {
  try {
    db.$client.pragma("synchronous = NORMAL");
  } catch {
    // a closed connection: nothing left to restore
  }
}

/** Errors that fail one statement and leave the transaction usable. */
function isolatable(error: unknown): boolean {
  // better-sqlite3's SqliteError carries the SQLite result code; anything else is a JS error
  // raised before or between statements (the savepoint undid what the write had done).
  const code =
    error instanceof Error && error.name === "SqliteError" ? (error as Error & { code?: unknown }).code : undefined;
  if (typeof code !== "string") return true;
  return (
    code.startsWith("SQLITE_CONSTRAINT") ||
    code === "SQLITE_MISMATCH" ||
    code === "SQLITE_TOOBIG" ||
    code === "SQLITE_RANGE"
  );
}

const queues = new WeakMap<Db, WriteQueue>();

/** The group-commit queue of this connection. */
export function writeQueue(db: Db): WriteQueue {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new WriteQueue(db)));
  return queue;
}

/**
 * Runs `write` in this tick's group commit of `db`; resolves once it is committed. `write`
 * must only touch the database: when another write of the flush fails, it runs again.
 * `durable`: that commit must survive power loss, not only a crash (synchronous=FULL).
 */
export function groupCommit<T>(db: Db, write: () => T, options: { durable?: boolean } = {}): Promise<T> {
  return writeQueue(db).run(write, options.durable === true);
}
