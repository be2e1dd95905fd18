/**
 * Statements prepared once per connection, for the queries a turn runs on every
 * event and step. Building a query with Drizzle and compiling it in SQLite costs
 * more than running it (~30-50 µs against ~10 µs); a turn runs about thirty.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../client";

const cache = new WeakMap<object, Map<string, unknown>>();

/** The statement `build` makes, built on first use for this connection (or transaction) and kept. */
export function prepared<D extends object, T>(db: D, key: string, build: (db: D) => T): T {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    statements.set(key, statement);
  }
  return statement;
}

/**
 * `fn` as one transaction (a savepoint inside another), wrapped once per connection by
 * better-sqlite3; Drizzle's db.transaction builds a transaction object on every call.
 * `fn` is kept from the first call: pass everything it needs as arguments.
 */
export function transaction<A extends unknown[], T>(db: Db, key: string, fn: (...args: A) => T): (...args: A) => T {
  return prepared(db, `transaction:${key}`, (d) => d.$client.transaction(fn));
}

/** A named parameter, encoded by its column (JSON columns are stringified, booleans become 0/1). */
export const param = (name: string) => sql.placeholder(name);

/**
 * A named parameter bound as given, not encoded by its column: for a nullable JSON
 * column, pass `jsonOrNull(value)` so that null stays SQL NULL (the column's encoder
 * would store the text "null").
 */
export const rawParam = (name: string): SQL => sql`${sql.placeholder(name)}`;

export const jsonOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);
