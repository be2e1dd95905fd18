/**
 * The database as the queries see it: asynchronous, and the same for both dialects. A query
 * builds its statement with Drizzle's builder (`db.orm`) over this dialect's tables (`db.t`)
 * and runs it through `db` (all/get/run, or a statement prepared once with `db.prepared`);
 * `db.transaction` gives a handle on which every statement is part of one transaction.
 * Services and the engine never learn which dialect runs: the SQLite file (sqlite-database.ts)
 * or PostgreSQL (postgres-database.ts).
 */
import type { SQL } from "drizzle-orm";
import type { BaseSQLiteDatabase, SQLiteTable } from "drizzle-orm/sqlite-core";
import type * as schema from "./schema";

export type Dialect = "sqlite" | "postgres";

type Schema = typeof schema;
type TableName = { [K in keyof Schema]: Schema[K] extends SQLiteTable ? K : never }[keyof Schema];

/** The tables, in this dialect's form (typed as their SQLite definitions, the one source of truth). */
export type Tables = Pick<Schema, TableName>;

/**
 * Drizzle's query builder. Typed as SQLite's; on PostgreSQL it is the pg builder, whose
 * select/insert/update/delete, where, returning and onConflict* read the same. Never call a
 * builder's own all/get/run/execute: run it through the Db, which knows the dialect.
 */
export type Orm = BaseSQLiteDatabase<"async", unknown, Schema>;

/** A statement prepared once per connection (prepared()): values for its placeholders go in `params`. */
export interface Statement<Row> {
  all(params?: Record<string, unknown>): Promise<Row[]>;
  get(params?: Record<string, unknown>): Promise<Row | undefined>;
  /** Runs it; resolves with the number of rows it changed. */
  run(params?: Record<string, unknown>): Promise<number>;
  /** Its rows as arrays of the selected fields, in order, unmapped (for a large read). */
  values(params?: Record<string, unknown>): Promise<unknown[][]>;
}

export interface TransactionOptions {
  /**
   * The commit must survive a power loss, not only a crash of this process (SQLite:
   * synchronous=FULL for this commit; PostgreSQL: its default, synchronous_commit=on).
   */
  durable?: boolean;
  /**
   * The commit may be lost in a crash of the database server, never half-applied (PostgreSQL:
   * synchronous_commit=off for this transaction; SQLite: its WAL default). For group commits
   * without a journal row; ignored with `durable`.
   */
  relaxed?: boolean;
}

export type RowsOf<Q> = Q extends PromiseLike<infer R> ? (R extends readonly (infer Row)[] ? Row : never) : never;

export interface Db {
  readonly dialect: Dialect;
  readonly orm: Orm;
  readonly t: Tables;
  /** This handle is a transaction's (or a savepoint's inside one). */
  readonly inTransaction: boolean;
  /**
   * Statements issued on this handle while others are in flight go out at once, and the
   * server runs them in the order issued (PostgreSQL: node-postgres's pipeline mode); false
   * where each statement finishes before the call that runs it returns (SQLite).
   */
  readonly pipelined: boolean;
  /**
   * On a transaction's handle: throws when the transaction has already ended (a statement
   * ended it early; what runs next would commit alone). Where the driver cannot tell, a no-op.
   */
  assertTransactionOpen(): void;
  all<Q extends PromiseLike<readonly unknown[]>>(query: Q): Promise<RowsOf<Q>[]>;
  get<Q extends PromiseLike<readonly unknown[]>>(query: Q): Promise<RowsOf<Q> | undefined>;
  /** Runs an insert, update or delete; resolves with the number of rows it changed. */
  run(query: PromiseLike<unknown>): Promise<number>;
  /** Raw SQL (written to run on both dialects): its rows as the driver returns them. */
  execute<Row = Record<string, unknown>>(query: SQL): Promise<Row[]>;
  /** The statement `build` makes, prepared on first use for this connection (a transaction: for it) and kept under `key`. */
  prepared<Q extends PromiseLike<unknown>>(key: string, build: (orm: Orm, t: Tables) => Q): Statement<RowsOf<Q>>;
  /** `fn` as one transaction; on a transaction's handle, a savepoint inside it. */
  transaction<T>(fn: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * On a transaction's handle: runs the statement `build` makes just before this handle's
   * transaction commits (or its savepoint is released), or before a savepoint opens on it,
   * whichever comes first; once per `key` until then, however often it is asked; forgotten when
   * it rolls back. For rows a transaction gathers as it goes and writes in one statement (in the
   * order they came). PostgreSQL runs the statements due at one moment, and at the commit the
   * transaction's notifications, as one statement (each a data-modifying WITH part of it): so a
   * statement given here must be an insert, update or delete that reads no row another writes.
   */
  beforeCommit(key: string, build: () => SQL): void;
  /**
   * Inside a transaction: waits until no other transaction holds the lock called `name`, and
   * holds it until this one ends (PostgreSQL: a transaction-scoped advisory lock; SQLite
   * needs nothing, a transaction holds the database's write lock from its start).
   */
  lock(name: string): Promise<void>;
  /** Tells every listener of `channel` (in every instance on this database) `payload`, once this handle's transaction commits. */
  notify(channel: string, payload: string): Promise<void>;
  /** Calls `listener` for each notification on `channel`; returns how to stop. */
  listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
  /** Resolves once the database is open and migrated; rejects with the reason it cannot be. */
  ready(): Promise<void>;
  /** The server's name and version, e.g. `SQLite 3.46.1`, `PostgreSQL 15.18`. */
  serverVersion(): Promise<string>;
  close(): Promise<void>;
}
