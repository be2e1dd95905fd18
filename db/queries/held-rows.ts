/**
 * Rows nothing reads back in the transaction that writes them: those of the append-only tables
 * (a turn's events, its transcript, its call records), and a turn's checkpoint as it is
 * overwritten step by step. On PostgreSQL, inside a transaction, each row is held and the rows
 * of a table are written together just before the transaction commits (Db.beforeCommit): one
 * statement for every turn of a group-commit flush, where a round trip per row was the cost.
 * Held inserts keep their order (a transcript is read back by id); of the held updates of one
 * row, the last is the one written. Elsewhere — outside a transaction, and on SQLite, whose
 * statements cost no round trip — a row is written at once.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../database";

type Column = readonly [column: string, type: "text" | "bigint" | "boolean"];

/** A table rows can be held for: its name and its columns with their PostgreSQL types, in insert order. */
export interface HeldTable {
  name: "events" | "messages" | "tool_calls";
  columns: readonly Column[];
}

/** A table whose rows can be updated at the commit: the row's key column, and the columns set. */
export interface HeldUpdate {
  name: "checkpoints";
  key: Column;
  columns: readonly Column[];
}

/** The rows held per transaction handle and table (a savepoint's handle holds its own). */
const held = new WeakMap<Db, Map<string, Record<string, unknown>[]>>();

/** The updates held per transaction handle and table, by the row's key. */
const heldUpdates = new WeakMap<Db, Map<string, Map<unknown, Record<string, unknown>>>>();

/** Whether rows inserted on `db` are held until its commit (holdRow) rather than inserted at once. */
export function holdsRows(db: Db): boolean {
  return db.dialect === "postgres" && db.inTransaction;
}

/**
 * Holds `row` (database column names to values, text already storable) for `table` until the
 * transaction of `db` commits (only where holdsRows says so).
 */
export function holdRow(db: Db, table: HeldTable, row: Record<string, unknown>): void {
  let tables = held.get(db);
  if (!tables) held.set(db, (tables = new Map()));
  let rows = tables.get(table.name);
  if (!rows) {
    const pending: Record<string, unknown>[] = [];
    tables.set(table.name, (rows = pending));
    const byTable = tables;
    db.beforeCommit(`held-rows:${table.name}`, () => {
      byTable.delete(table.name);
      return insertAll(table, pending);
    });
  }
  rows.push(row);
}

/**
 * Holds the update of one row of `table` (`row`: its key column and the columns it sets) until
 * the transaction of `db` commits (only where holdsRows says so); a later one of the same row
 * replaces it.
 */
export function holdUpdate(db: Db, table: HeldUpdate, row: Record<string, unknown>): void {
  let tables = heldUpdates.get(db);
  if (!tables) heldUpdates.set(db, (tables = new Map()));
  let rows = tables.get(table.name);
  if (!rows) {
    const pending = new Map<unknown, Record<string, unknown>>();
    tables.set(table.name, (rows = pending));
    const byTable = tables;
    db.beforeCommit(`held-updates:${table.name}`, () => {
      byTable.delete(table.name);
      return updateAll(table, [...pending.values()]);
    });
  }
  rows.set(row[table.key[0]], row);
}

/** One statement updating a row of `table` per entry of `rows` (PostgreSQL). */
function updateAll(table: HeldUpdate, rows: Record<string, unknown>[]): SQL {
  const columns = [table.key, ...table.columns];
  const typed = columns.map(([column, type]) => `${column} ${type}`).join(", ");
  const set = table.columns.map(([column]) => `${column} = v.${column}`).join(", ");
  const [key] = table.key;
  // The planner takes json_to_recordset for 100 rows whatever it holds, and for a table of a few
  // thousand rows would rather scan it than look 100 keys up: the limit (the rows it does hold)
  // lets it see a flush's few rows, each then found by key.
  // Names and types come from the fixed table specs in this module's callers, never from input.
  return sql`update ${sql.raw(table.name)} as t set ${sql.raw(set)} from (select * from json_to_recordset(cast(${JSON.stringify(rows)} as text)::json) as r(${sql.raw(typed)}) limit ${sql.raw(String(rows.length))}) as v where t.${sql.raw(key)} = v.${sql.raw(key)}`;
}

/** One statement inserting `rows` into `table`, in their order (PostgreSQL). */
function insertAll(table: HeldTable, rows: Record<string, unknown>[]): SQL {
  const names = table.columns.map(([column]) => column);
  const typed = table.columns.map(([column, type]) => `${column} ${type}`).join(", ");
  const list = names.join(", ");
  // Names and types come from the fixed table specs in this module's callers, never from input.
  return sql`insert into ${sql.raw(table.name)} (${sql.raw(list)}) select ${sql.raw(list)} from rows from (json_to_recordset(cast(${JSON.stringify(rows)} as text)::json) as (${sql.raw(typed)})) with ordinality as r(${sql.raw(list)}, held_order) order by held_order`;
}
