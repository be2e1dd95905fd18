/**
 * Group commit: the writes every turn of this process issues close together are committed
 * together, in one transaction, instead of one commit each. A flush gathers while writes keep
 * coming: it waits one turn of the event loop after the first write, then more while each turn
 * adds writes (other turns' I/O completing), at most GATHER_TURNS of them, so an idle process
 * commits at once and a busy one in fewer, larger transactions.
 *
 * A write is a function of the transaction's handle, run at flush time in the order writes
 * were queued (on PostgreSQL, each turn's writes in their order and the turns' side by side:
 * flush-writes.ts); its promise settles only once the transaction that holds it has committed
 * (or failed), so a caller that awaits it never proceeds on a write that is not durable yet
 * (DESIGN D9: the journal row of a call is committed before the call is sent).
 *
 * A write that fails with an error that leaves the transaction usable (a constraint, a bad
 * value) is undone alone and rejects only its own promise; any other failure (the commit
 * itself, a lost connection, a busy or full database) rolls the whole flush back and rejects
 * every write in it. To get there cheaply, a flush first runs all its writes in one plain
 * transaction; only if one throws is that rolled back and the flush run again with a
 * savepoint per write. So a write must touch nothing but the database: it may run twice
 * (its first run undone). Nor may it open a savepoint of its own (tx.transaction): on
 * PostgreSQL other writes run beside it on the same transaction.
 *
 * Durability: a flush commits as the dialect's relaxed default (SQLite WAL with
 * synchronous=NORMAL, PostgreSQL with synchronous_commit=off: both survive a crash of this
 * process, and may lose the last commits when the machine or the database server loses
 * power, never half of one). A write queued `durable` (the journal row of a side-effecting
 * call: losing it would send the call again) makes its flush commit durably (SQLite
 * synchronous=FULL, PostgreSQL synchronous_commit=on).
 *
 * A write may carry a notification (Db.notify): the flush sends each distinct one once, in
 * its transaction, so listeners on every instance hear of it when it commits.
 */
import type { Db } from "@/db/database";
import { failsOnlyItsStatement } from "@/db/database-errors";
import { observeFlush } from "@/lib/observability/insika-metrics";
import { runWrites, WriteFailed, type Outcome } from "./flush-writes";

type Write = (tx: Db) => Promise<unknown>;

/**
 * A precondition many writes share, checked once per flush for all of them (one statement,
 * not one per write): the lease fence of every turn with a write in the flush. Writes with the
 * same `name` are checked together; a write whose `key` does not pass is not run and fails
 * with `refuse(key)`.
 */
export interface FlushCheck {
  readonly name: string;
  readonly key: string;
  /** The keys among `keys` that pass, read in the flush's transaction. */
  passing(tx: Db, keys: string[]): Promise<ReadonlySet<string>>;
  refuse(key: string): Error;
}

interface Job {
  write: Write;
  durable: boolean;
  check: FlushCheck | undefined;
  /** What this write keeps its order with (flush-writes.ts). */
  orderedWith: readonly string[];
  /** A notification the flush sends once (Db.notify) when it commits this write. */
  notify: readonly [string, string] | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface QueueOptions {
  durable: boolean;
  notify: readonly [string, string] | undefined;
  lazy: boolean;
  check: FlushCheck | undefined;
  orderedWith: readonly string[] | undefined;
}

/** How long a lazy write may wait for an eager one to flush it (ms). */
const LAZY_FLUSH_MS = 2;

/**
 * The most turns of the event loop a flush waits for more writes while they keep coming. A
 * commit costs about the same for two writes as for twenty (SQLite writes each page it
 * changed once, and the tables a turn writes share pages), so a busy process spends less per
 * write in larger flushes; the bound keeps the wait short (decisions.md, "A flush gathers
 * while writes keep coming").
 */
const GATHER_TURNS = 8;

class WriteQueue {
  private jobs: Job[] = [];
  private scheduled = false;
  private lazyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The flush in progress: the next waits for it (one transaction at a time per queue). */
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  /**
   * Queues `write` for this tick's commit; resolves with its result once committed. A `lazy`
   * write (one nobody waits for) schedules no flush of its own at once: it joins the next one an
   * eager write schedules, or one LAZY_FLUSH_MS later, so it never delays the work after it.
   */
  run<T>(write: (tx: Db) => Promise<T>, options: QueueOptions): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const { durable, notify, check } = options;
      // By default a fenced write keeps its order with its turn's; the others with each other.
      const orderedWith = options.orderedWith ?? [check ? `${check.name}:${check.key}` : ""];
      const settle = { resolve: resolve as (value: unknown) => void, reject };
      this.jobs.push({ write, durable, notify, check, orderedWith, ...settle });
      if (options.lazy) this.scheduleLazy();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    let turnsLeft = GATHER_TURNS;
    let queued = this.jobs.length;
    const gather = () => {
      if (this.jobs.length > queued && turnsLeft > 0) {
        turnsLeft -= 1;
        queued = this.jobs.length;
        setImmediate(gather);
        return;
      }
      this.flushing = this.flushing.then(() => this.flush());
    };
    setImmediate(gather);
  }

  private scheduleLazy(): void {
    if (this.scheduled || this.lazyTimer) return;
    this.lazyTimer = setTimeout(() => {
      this.lazyTimer = undefined;
      this.schedule();
    }, LAZY_FLUSH_MS);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.lazyTimer) {
      clearTimeout(this.lazyTimer);
      this.lazyTimer = undefined;
    }
    const jobs = this.jobs;
    this.jobs = [];
    if (jobs.length === 0) return;
    const started = performance.now();
    let outcomes: Outcome[];
    try {
      outcomes = await this.commit(jobs);
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    } finally {
      observeFlush((performance.now() - started) / 1000);
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  /** Runs the jobs in one transaction; throws when the whole flush failed. */
  private async commit(jobs: Job[]): Promise<Outcome[]> {
    const options = { durable: jobs.some((job) => job.durable), relaxed: true };
    try {
      return await this.db.transaction(async (tx) => {
        const outcomes = await runWrites(tx, jobs, await runChecks(tx, jobs));
        await notifyOnce(
          tx,
          jobs.filter((_, i) => outcomes[i]!.ok),
        );
        return outcomes;
      }, options);
    } catch (error) {
      // A write failed alone, or rows held until the commit did (whose, unknown: Db.beforeCommit):
      // rolled back as a whole, the flush runs again with each write isolated.
      if (!(error instanceof WriteFailed) && !failsOnlyItsStatement(error)) throw error;
      return this.commitIsolated(jobs, options);
    }
  }

  /** The jobs in one transaction, each in a savepoint of its own. */
  private commitIsolated(jobs: Job[], options: { durable: boolean; relaxed: boolean }): Promise<Outcome[]> {
    return this.db.transaction(async (tx) => {
      const refused = await runChecks(tx, jobs);
      const outcomes: Outcome[] = [];
      for (const [i, job] of jobs.entries()) {
        const refusal = refused.get(i);
        if (refusal) {
          outcomes.push({ ok: false, error: refusal });
          continue;
        }
        try {
          outcomes.push({ ok: true, value: await tx.transaction((savepoint) => job.write(savepoint)) });
          tx.assertTransactionOpen();
        } catch (error) {
          // Undone alone only when the transaction is still sound; otherwise the flush fails.
          if (!failsOnlyItsStatement(error)) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      await notifyOnce(
        tx,
        jobs.filter((_, i) => outcomes[i]!.ok),
      );
      return outcomes;
    }, options);
  }
}

/** Runs each check of the flush once, for all its keys; the refusal of each job that did not pass, by index. */
async function runChecks(tx: Db, jobs: Job[]): Promise<Map<number, Error>> {
  const refused = new Map<number, Error>();
  const byName = new Map<string, { check: FlushCheck; keys: Set<string> }>();
  for (const { check } of jobs) {
    if (!check) continue;
    const group = byName.get(check.name);
    if (group) group.keys.add(check.key);
    else byName.set(check.name, { check, keys: new Set([check.key]) });
  }
  for (const [name, { check, keys }] of byName) {
    const passing = await check.passing(tx, [...keys]);
    jobs.forEach((job, i) => {
      if (job.check?.name === name && !passing.has(job.check.key)) refused.set(i, check.refuse(job.check.key));
    });
  }
  return refused;
}

/** Each distinct notification of the flush's writes, sent once, in the flush's transaction. */
async function notifyOnce(tx: Db, jobs: Job[]): Promise<void> {
  const sent = new Set<string>();
  for (const { notify } of jobs) {
    if (!notify) continue;
    const key = `${notify[0]}\n${notify[1]}`;
    if (sent.has(key)) continue;
    sent.add(key);
    await tx.notify(notify[0], notify[1]);
  }
}

const queues = new WeakMap<Db, WriteQueue>();

/** The group-commit queue of this database. */
export function writeQueue(db: Db): WriteQueue {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new WriteQueue(db)));
  return queue;
}

/**
 * Runs `write` in this tick's group commit of `db`; resolves once it is committed. `write`
 * gets the transaction's handle and must only touch the database: when another write of
 * the flush fails, it runs again. `durable`: that commit must survive power loss, not only
 * a crash. `lazy`: no one waits for this write, so it may wait (briefly) for the next flush.
 * `check`: a precondition the flush checks first, once for every write that shares it.
 * `orderedWith`: names of what this write must run in order with; writes sharing a name do,
 * the others may run beside it where the database pipelines (flush-writes.ts). By default
 * the writes with the same check, or else every write without a check or names.
 */
export function groupCommit<T>(
  db: Db,
  write: (tx: Db) => Promise<T>,
  options: {
    durable?: boolean;
    notify?: readonly [string, string] | undefined;
    lazy?: boolean;
    check?: FlushCheck;
    orderedWith?: readonly string[];
  } = {},
): Promise<T> {
  return writeQueue(db).run(write, {
    durable: options.durable === true,
    notify: options.notify,
    lazy: options.lazy === true,
    check: options.check,
    orderedWith: options.orderedWith,
  });
}
