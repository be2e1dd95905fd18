/**
 * Rows of the append-only tables nothing reads back in the transaction that writes them (a
 * turn's events and its transcript). On PostgreSQL, inside a transaction, each row is held and
 * the rows of a table are inserted together just before the transaction commits (Db.beforeCommit):
 * one statement for every turn of a group-commit flush, where a round trip per row was the cost.
 * Held rows keep their order (a transcript is read back by id). Elsewhere — outside a
 * transaction, and on SQLite, whose statements cost no round trip — a row is inserted at once.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../database";

/** A table rows can be held for: its name and its columns with their PostgreSQL types, in insert order. */
export interface HeldTable {
  name: "events" | "messages";
  columns: readonly (readonly [column: string, type: "text" | "bigint"])[];
}

/** The rows held per transaction handle and table (a savepoint's handle holds its own). */
const held = new WeakMap<Db, Map<string, Record<string, unknown>[]>>();

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
    db.beforeCommit(`held-rows:${table.name}`, async (tx) => {
      byTable.delete(table.name);
      await tx.execute(insertAll(table, pending));
    });
  }
  rows.push(row);
}

/** One statement inserting `rows` into `table`, in their order (PostgreSQL). */
function insertAll(table: HeldTable, rows: Record<string, unknown>[]) {
  const names = table.columns.map(([column]) => column);
  const typed = table.columns.map(([column, type]) => `${column} ${type}`).join(", ");
  const list = names.join(", ");
  // Names and types come from the fixed table specs in this module's callers, never from input.
  return sql`insert into ${sql.raw(table.name)} (${sql.raw(list)}) select ${sql.raw(list)} from rows from (json_to_recordset(cast(${JSON.stringify(rows)} as text)::json) as (${sql.raw(typed)})) with ordinality as r(${sql.raw(list)}, held_order) order by held_order`;
}
