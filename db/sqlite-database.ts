/**
 * The SQLite form of the Db: one better-sqlite3 connection per file, whose statements run
 * synchronously behind an asynchronous face. A transaction holds the connection across the
 * awaits of its body, so a gate keeps every other statement of this process out until it
 * ends (otherwise a statement of another request would silently join it, and vanish with
 * its rollback): connection-gate.ts.
 */
import type Database from "better-sqlite3";
import { sql, type SQL } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { TransactionEndedError } from "./database-errors";
import { CommitHooks } from "./commit-hooks";
import type { Db, Orm, RowsOf, Statement, Tables, TransactionOptions } from "./database";
import { placeholderFiller } from "./placeholder-filler";
import * as schema from "./schema";
import { closeConnection, sqliteConnection, type SqliteConnection, type SyncPrepared } from "./sqlite-connection";

const dialect = new SQLiteSyncDialect();

/** Drizzle's prepared statement: the SyncPrepared calls, and its text and parameters. */
interface DrizzlePrepared extends SyncPrepared {
  getQuery(): { sql: string; params: unknown[] };
}

/**
 * `prepared` with a `run` of its own: the parameters filled by placeholderFiller (decided once,
 * not per run), on a better-sqlite3 statement of the same text. The reads keep Drizzle's
 * calls, which map the rows. The writes of a turn are all runs.
 */
function withFilledRun(prepared: DrizzlePrepared, client: Database.Database): SyncPrepared {
  const { sql: text, params } = prepared.getQuery();
  const statement = client.prepare(text);
  if (statement.reader) return prepared;
  const fill = placeholderFiller(params);
  return {
    all: (values) => prepared.all(values),
    get: (values) => prepared.get(values),
    values: (values) => prepared.values(values),
    run: (values) => statement.run(...fill(values ?? {})),
  };
}

interface SyncQuery {
  all(): unknown[];
  get(): unknown;
  run(): { changes: number };
}

export class SqliteDatabase implements Db {
  readonly dialect = "sqlite" as const;
  readonly pipelined = false;
  readonly t: Tables = schema;
  /** Notifications of this transaction, told once it commits. */
  private pending: [string, string][] = [];
  /** What runs just before this handle's transaction or savepoint ends well (beforeCommit), by key. */
  private readonly hooks = new CommitHooks();
  /** The prepared statements this handle has handed out, bound to it. */
  private readonly bound = new Map<string, Statement<unknown>>();

  private constructor(
    private readonly conn: SqliteConnection,
    /** 0: the root handle; 1: a transaction; 2 and more: a savepoint in it. */
    private readonly depth: number,
  ) {}

  get inTransaction(): boolean {
    return this.depth > 0;
  }

  /** The Db over an open (and migrated) connection. */
  static over(
    client: Database.Database,
    orm: BetterSQLite3Database<typeof schema>,
    onClose?: () => Promise<void>,
    options: { gateWaitMs?: number } = {},
  ): SqliteDatabase {
    return SqliteDatabase.on(sqliteConnection(client, orm, onClose, options));
  }

  /** A Db over a connection another handle (perhaps of another copy of this module) opened. */
  static on(connection: SqliteConnection): SqliteDatabase {
    return new SqliteDatabase(connection, 0);
  }

  /** The better-sqlite3 connection (pragmas, the WAL checkpointer, benchmarks). */
  get client(): Database.Database {
    return this.conn.client;
  }

  get orm(): Orm {
    return this.conn.orm as unknown as Orm;
  }

  assertTransactionOpen(): void {
    // A statement of this transaction after it ended (a raw ROLLBACK, COMMIT) would autocommit alone.
    if (this.inTransaction && !this.conn.client.inTransaction) throw new TransactionEndedError();
  }

  /** What a statement waits for first: nothing in a transaction, else any transaction in progress. */
  private entry(): Promise<void> | undefined {
    if (this.inTransaction) {
      this.assertTransactionOpen();
      return undefined;
    }
    return this.conn.gate.held ? this.conn.gate.pass() : undefined;
  }

  async all<Q extends PromiseLike<readonly unknown[]>>(query: Q): Promise<RowsOf<Q>[]> {
    const wait = this.entry();
    if (wait) await wait;
    return (query as unknown as SyncQuery).all() as RowsOf<Q>[];
  }

  async get<Q extends PromiseLike<readonly unknown[]>>(query: Q): Promise<RowsOf<Q> | undefined> {
    const wait = this.entry();
    if (wait) await wait;
    return (query as unknown as SyncQuery).get() as RowsOf<Q> | undefined;
  }

  async run(query: PromiseLike<unknown>): Promise<number> {
    const wait = this.entry();
    if (wait) await wait;
    return (query as unknown as SyncQuery).run().changes;
  }

  async execute<Row = Record<string, unknown>>(query: SQL): Promise<Row[]> {
    const wait = this.entry();
    if (wait) await wait;
    const { sql: text, params } = dialect.sqlToQuery(query);
    const statement = this.conn.client.prepare(text);
    if (statement.reader) return statement.all(...params) as Row[];
    statement.run(...params);
    return [];
  }

  prepared<Q extends PromiseLike<unknown>>(key: string, build: (orm: Orm, t: Tables) => Q): Statement<RowsOf<Q>> {
    let bound = this.bound.get(key);
    if (!bound) {
      let statement = this.conn.statements.get(key);
      if (!statement) {
        const prepared = (build(this.orm, this.t) as unknown as { prepare(): DrizzlePrepared }).prepare();
        statement = withFilledRun(prepared, this.conn.client);
        this.conn.statements.set(key, statement);
      }
      bound = this.bind(statement);
      this.bound.set(key, bound);
    }
    return bound as Statement<RowsOf<Q>>;
  }

  /** A prepared statement behind this handle's entry (made once per handle and key). */
  private bind(s: SyncPrepared): Statement<unknown> {
    return {
      all: async (params) => {
        const wait = this.entry();
        if (wait) await wait;
        return s.all(params);
      },
      get: async (params) => {
        const wait = this.entry();
        if (wait) await wait;
        return s.get(params);
      },
      run: async (params) => {
        const wait = this.entry();
        if (wait) await wait;
        return s.run(params).changes;
      },
      values: async (params) => {
        const wait = this.entry();
        if (wait) await wait;
        return s.values(params);
      },
    };
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.inTransaction) return this.savepoint(fn);
    const { client, gate } = this.conn;
    await gate.acquire();
    const tx = new SqliteDatabase(this.conn, 1);
    try {
      if (options.durable) client.pragma("synchronous = FULL");
      // IMMEDIATE: the write lock from the start, so two processes on one file never both
      // read and then both try to write (one of them would fail with SQLITE_BUSY).
      client.exec("BEGIN IMMEDIATE");
      let value: T;
      try {
        value = await fn(tx);
        await tx.writeHeld();
        client.exec("COMMIT");
      } catch (error) {
        if (client.inTransaction) client.exec("ROLLBACK");
        throw error;
      }
      for (const [channel, payload] of tx.pending) this.conn.notifications.emit(channel, payload);
      return value;
    } finally {
      if (options.durable) restoreNormal(client);
      gate.release();
    }
  }

  private async savepoint<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    const { client } = this.conn;
    // What this handle holds goes in first: rows it held before the savepoint stay before the savepoint's.
    await this.writeHeld();
    // Named by depth: the same few statements every time (a sibling reuses a released name).
    const name = `sp${this.depth}`;
    client.exec(`SAVEPOINT ${name}`);
    const inner = new SqliteDatabase(this.conn, this.depth + 1);
    try {
      const value = await fn(inner);
      await inner.writeHeld();
      client.exec(`RELEASE ${name}`);
      this.pending.push(...inner.pending);
      return value;
    } catch (error) {
      if (client.inTransaction) {
        client.exec(`ROLLBACK TO ${name}`);
        client.exec(`RELEASE ${name}`);
      }
      throw error;
    }
  }

  beforeCommit(key: string, build: () => SQL): void {
    this.hooks.add(this, key, build);
  }

  /** Runs the statements due before a commit, a release or a savepoint (beforeCommit), one by one. */
  private async writeHeld(): Promise<void> {
    for (const statement of this.hooks.take()) await this.execute(statement);
  }

  async lock(_name: string): Promise<void> {
    // BEGIN IMMEDIATE already holds the database's write lock.
  }

  async notify(channel: string, payload: string): Promise<void> {
    if (this.inTransaction) this.pending.push([channel, payload]);
    else this.conn.notifications.emit(channel, payload);
  }

  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    this.conn.notifications.on(channel, listener);
    return async () => {
      this.conn.notifications.off(channel, listener);
    };
  }

  async ready(): Promise<void> {
    // Opened and migrated synchronously (openSqlite).
  }

  async serverVersion(): Promise<string> {
    const row = this.conn.orm.get<{ v: string }>(sql`select sqlite_version() as v`);
    return `SQLite ${row.v}`;
  }

  /** Closes the connection, for every handle on it; closing it again waits for the first close. */
  close(): Promise<void> {
    return closeConnection(this.conn);
  }
}

/** Back to the connection's default after a durable commit (the database may be gone: that is the commit's news). */
function restoreNormal(client: Database.Database): void {
  try {
    client.pragma("synchronous = NORMAL");
  } catch {
    // a closed connection: nothing left to restore
  }
}
