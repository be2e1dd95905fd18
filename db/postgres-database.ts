/**
 * The PostgreSQL form of the Db: Drizzle's pg dialect over a node-postgres pool
 * (postgres-pool.ts), over the tables derived from the SQLite definitions (pg-schema.ts).
 * Its first statement waits for ready(): the server reached (a clear error within
 * CONNECT_TIMEOUT_MS, never a hang) and the migrations of db/migrations-pg applied under an
 * advisory lock, so instances starting at once migrate one after the other. Notifications
 * are LISTEN/NOTIFY, heard on one connection of their own that reconnects when it drops.
 */
import crypto from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { CommitHooks } from "./commit-hooks";
import { commitStatement } from "./postgres-commit-statement";
import type { Db, Orm, RowsOf, Statement, Tables, TransactionOptions } from "./database";
import { pgTables } from "./pg-schema";
import { NotificationListener } from "./postgres-notification-listener";
import {
  CONNECT_TIMEOUT_MS,
  closePool,
  migrateOnce,
  openPool,
  type PgOrm,
  type PoolOptions,
  type Prepared,
  type SharedPool,
} from "./postgres-pool";

export class PostgresDatabase implements Db {
  readonly dialect = "postgres" as const;
  readonly t: Tables = pgTables;
  readonly pipelined = true;
  /** What runs just before this handle's transaction or savepoint ends well (beforeCommit), by key. */
  private readonly hooks = new CommitHooks();
  /** In a transaction: its notifications, sent just before it commits. */
  private readonly pending: [string, string][] = [];
  /** In a transaction: the shared statements, each bound to this transaction's connection. */
  private readonly bound = new Map<string, Prepared>();

  private constructor(
    private readonly shared: SharedPool,
    private readonly pgOrm: PgOrm,
    readonly inTransaction: boolean,
    /** How many savepoints this handle is inside (0: the transaction itself, or no transaction). */
    private readonly depth = 0,
  ) {}

  /** A handle on `url`'s pool (postgres-pool.ts); nothing is connected until the first statement (or ready()). */
  static open(url: string, options: PoolOptions): PostgresDatabase {
    const shared = openPool(url, options);
    return new PostgresDatabase(shared, shared.root, false);
  }

  assertTransactionOpen(): void {
    // node-postgres does not say; a transaction ended early fails at its COMMIT instead.
  }

  get orm(): Orm {
    return this.pgOrm as unknown as Orm;
  }

  ready(): Promise<void> {
    const shared = this.shared;
    // A failure is not kept: the next statement tries again (the database may be back).
    shared.ready ??= migrateOnce(shared).then(
      () => {
        shared.isReady = true;
      },
      (error: unknown) => {
        shared.ready = undefined;
        throw error;
      },
    );
    return shared.ready;
  }

  private async enter(): Promise<void> {
    if (!this.shared.isReady) await this.ready();
  }

  async all<Q extends PromiseLike<readonly unknown[]>>(query: Q): Promise<RowsOf<Q>[]> {
    await this.enter();
    return (await query) as unknown as RowsOf<Q>[];
  }

  async get<Q extends PromiseLike<readonly unknown[]>>(query: Q): Promise<RowsOf<Q> | undefined> {
    await this.enter();
    return ((await query) as unknown as RowsOf<Q>[])[0];
  }

  async run(query: PromiseLike<unknown>): Promise<number> {
    await this.enter();
    return changedRows(await query);
  }

  async execute<Row = Record<string, unknown>>(query: SQL): Promise<Row[]> {
    await this.enter();
    const result = await this.pgOrm.execute(query);
    return result.rows as Row[];
  }

  prepared<Q extends PromiseLike<unknown>>(key: string, build: (orm: Orm, t: Tables) => Q): Statement<RowsOf<Q>> {
    const s = this.inTransaction ? this.boundStatement(key, build) : this.sharedStatement(key, build);
    return {
      all: async (params) => {
        await this.enter();
        return rowsOf(await s.execute(params)) as RowsOf<Q>[];
      },
      get: async (params) => {
        await this.enter();
        return rowsOf(await s.execute(params))[0] as RowsOf<Q> | undefined;
      },
      run: async (params) => {
        await this.enter();
        return changedRows(await s.execute(params));
      },
      values: async (params) => {
        await this.enter();
        return rowsOf(await s.execute(params)).map((row) => Object.values(row as object));
      },
    };
  }

  /** The statement of `key`, built and prepared once per process (on the pool's handle). */
  private sharedStatement(key: string, build: (orm: Orm, t: Tables) => PromiseLike<unknown>): Prepared {
    let statement = this.shared.statements.get(key);
    if (!statement) {
      const orm = this.shared.root as unknown as Orm;
      statement = (build(orm, this.t) as unknown as { prepare(name: string): Prepared }).prepare(statementName(key));
      this.shared.statements.set(key, statement);
    }
    return statement;
  }

  /**
   * The shared statement run on this transaction's connection. Drizzle binds a prepared query to
   * the handle it was built on, and building one costs more than running it; so it is built once,
   * and each transaction gets a view of it whose client is the transaction's (`client` is the one
   * field Drizzle's node-postgres query runs with; the integration suite runs every statement).
   */
  private boundStatement(key: string, build: (orm: Orm, t: Tables) => PromiseLike<unknown>): Prepared {
    let statement = this.bound.get(key);
    if (!statement) {
      const client = (this.pgOrm as unknown as { session: { client: pg.PoolClient } }).session.client;
      statement = Object.create(this.sharedStatement(key, build), { client: { value: client } }) as Prepared;
      this.bound.set(key, statement);
    }
    return statement;
  }

  /**
   * A transaction on a connection of the pool, run here rather than by Drizzle so that its
   * `begin` (and `set local`) goes out with its first statement instead of a round trip ahead
   * of it (the connection pipelines), and so that a commit the server answers with a rollback
   * (a statement of it failed and the error was caught) is an error, not a success.
   */
  async transaction<T>(fn: (tx: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    await this.enter();
    if (this.inTransaction) return this.savepoint(fn);
    const client = await this.shared.pool.connect();
    const relaxed = options.relaxed && !options.durable;
    const begun = client.query(relaxed ? "begin; set local synchronous_commit to off" : "begin");
    begun.catch(() => undefined); // its failure fails the statements after it, awaited below
    try {
      const inner = new PostgresDatabase(this.shared, clientOrm(client), true);
      const value = await fn(inner);
      await begun;
      // Its notifications go out in the one statement that writes what it held.
      await inner.writeHeld(inner.pending);
      const committed = await client.query("commit");
      if (committed.command !== "COMMIT")
        throw new Error(`the commit was answered with ${committed.command}: a statement of the transaction failed`);
      client.release();
      return value;
    } catch (error) {
      await client.query("rollback").then(
        () => client.release(),
        (rollbackError: Error) => client.release(rollbackError), // a connection that cannot roll back is closed
      );
      throw error;
    }
  }

  /** `fn` in a savepoint of this transaction, its notifications kept for the transaction's commit. */
  private async savepoint<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    // What this handle holds goes in first, so rows it held before stay before the savepoint's.
    await this.writeHeld([]);
    const depth = this.depth + 1;
    await this.pgOrm.execute(sql.raw(`savepoint sp${depth}`));
    try {
      const inner = new PostgresDatabase(this.shared, this.pgOrm, true, depth);
      const value = await fn(inner);
      await inner.writeHeld([]);
      this.pending.push(...inner.pending);
      await this.pgOrm.execute(sql.raw(`release savepoint sp${depth}`));
      return value;
    } catch (error) {
      await this.pgOrm.execute(sql.raw(`rollback to savepoint sp${depth}`));
      throw error;
    }
  }

  beforeCommit(key: string, build: () => SQL): void {
    this.hooks.add(this, key, build);
  }

  /** The statements due now (beforeCommit) and `notifications`, in one statement (one round trip). */
  private async writeHeld(notifications: [string, string][]): Promise<void> {
    const statement = commitStatement(this.hooks.take(), notifications);
    if (statement) await this.pgOrm.execute(statement);
  }

  async lock(name: string): Promise<void> {
    if (!this.inTransaction) throw new Error(`lock('${name}') outside a transaction holds nothing`);
    await this.pgOrm.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
  }

  async notify(channel: string, payload: string): Promise<void> {
    // In a transaction: held, and sent with the others in one statement before it commits
    // (PostgreSQL delivers them at the commit either way).
    if (this.inTransaction) {
      this.pending.push([channel, payload]);
      return;
    }
    await this.enter();
    await this.pgOrm.execute(sql`select pg_notify(${channel}, ${payload})`);
  }

  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    await this.enter();
    this.shared.listener ??= new NotificationListener(this.shared.url, CONNECT_TIMEOUT_MS);
    return this.shared.listener.add(channel, listener);
  }

  async serverVersion(): Promise<string> {
    const [row] = await this.execute<{ v: string }>(sql`select current_setting('server_version') as v`);
    return `PostgreSQL ${row?.v ?? "?"}`;
  }

  async close(): Promise<void> {
    await closePool(this.shared);
  }
}

/** A Drizzle handle whose statements run on `client` (one per pooled connection, kept with it). */
const clientOrms = new WeakMap<pg.PoolClient, PgOrm>();
function clientOrm(client: pg.PoolClient): PgOrm {
  let orm = clientOrms.get(client);
  if (!orm) clientOrms.set(client, (orm = drizzle({ client })));
  return orm;
}

function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  return ((result as { rows?: unknown[] }).rows ?? []) as unknown[];
}

function changedRows(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  return (result as { rowCount?: number | null }).rowCount ?? 0;
}

/** A server-side statement name for a cache key: short (PostgreSQL keeps 63 bytes) and unique per key. */
function statementName(key: string): string {
  const hash = crypto.createHash("sha1").update(key).digest("hex").slice(0, 10);
  return `${key.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40)}_${hash}`;
}
