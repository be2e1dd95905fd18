/**
 * The PostgreSQL form of every table, derived from the SQLite definitions in db/schema (the
 * one source of truth): same table, column, index and key names, so one set of queries runs
 * on both. Column types map one to one: text stays text (JSON columns too: they are text in
 * both, encoded by the column), an integer becomes a bigint (times are milliseconds, past
 * int4), a boolean a boolean, and an integer primary key (SQLite's rowid) a bigserial.
 * drizzle-kit reads this module for the PostgreSQL migrations (drizzle.pg.config.ts); at run
 * time the pg connection uses these objects (db/postgres-database.ts).
 */
import { getTableColumns, sql, type AnyColumn, type SQL } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  customType,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type PgColumnBuilderBase,
} from "drizzle-orm/pg-core";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import * as sqlite from "./schema";

/** JSON kept as text, as in SQLite (the column encodes and decodes; a jsonb would be parsed by the driver). */
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value) as unknown,
});

function pgColumn(column: SQLiteColumn): PgColumnBuilderBase {
  const { name, columnType } = column;
  let builder;
  switch (columnType) {
    case "SQLiteText":
      builder = text(name, { enum: (column as unknown as { enumValues?: [string, ...string[]] }).enumValues });
      break;
    case "SQLiteTextJson":
      builder = jsonText(name);
      break;
    case "SQLiteBoolean":
      builder = boolean(name);
      break;
    case "SQLiteInteger":
      if (column.primary) return bigserial(name, { mode: "number" }).primaryKey();
      builder = bigint(name, { mode: "number" });
      break;
    default:
      throw new Error(`pg-schema: no PostgreSQL form for ${columnType} (${name})`);
  }
  if (column.primary) builder = builder.primaryKey();
  else if (column.notNull) builder = builder.notNull();
  return builder;
}

/**
 * The PostgreSQL form of each partial index's condition, by index name. SQLite's is written with
 * its own JSON functions, so it cannot be carried over as it is; an index derived without its
 * condition would be another index (every row in it, written on every insert). The queries that
 * use one spell the condition the same way (db/queries/overview.ts), so the planner matches it.
 */
const PARTIAL_INDEX_CONDITIONS: Record<string, SQL> = {
  tool_calls_blocked: sql`(cast(record as jsonb) #>> '{egress,verdict}') = 'blocked'`,
  turns_unfinished: sql`status in ('running', 'waiting')`,
  turns_parent: sql`parent_turn_id is not null`,
};

function partialCondition(index: string): SQL {
  const condition = PARTIAL_INDEX_CONDITIONS[index];
  if (!condition) throw new Error(`pg-schema: no PostgreSQL form for the condition of the partial index ${index}`);
  return condition;
}

type Tables = typeof sqlite;
type TableName = { [K in keyof Tables]: Tables[K] extends SQLiteTable ? K : never }[keyof Tables];

const byName = new Map<string, ReturnType<typeof pgTable>>();

function derive(table: SQLiteTable) {
  const config = getTableConfig(table);
  const columns = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [key, pgColumn(column as SQLiteColumn)]),
  );
  const keyOf = (column: AnyColumn) =>
    Object.entries(getTableColumns(table)).find(([, c]) => c.name === column.name)![0];
  const derived = pgTable(config.name, columns, (t) => {
    const col = (c: AnyColumn) => (t as unknown as Record<string, AnyColumn>)[keyOf(c)]!;
    return [
      ...config.indexes.map((i) => {
        const cols = i.config.columns.map((c) => col(c as AnyColumn));
        const make = i.config.unique ? uniqueIndex(i.config.name) : index(i.config.name);
        const built = make.on(...(cols as [never, ...never[]]));
        return i.config.where ? built.where(partialCondition(i.config.name)) : built;
      }),
      ...config.primaryKeys.map((pk) => primaryKey({ columns: pk.columns.map(col) as [never, ...never[]] })),
      ...config.foreignKeys.map((fk) => {
        const ref = fk.reference();
        const target = byName.get(getTableConfig(ref.foreignTable).name)!;
        const targetColumns = getTableColumns(target) as Record<string, AnyColumn>;
        const foreignColumns = ref.foreignColumns.map((fc) =>
          Object.values(targetColumns).find((c) => c.name === fc.name)!,
        );
        let key = foreignKey({
          columns: ref.columns.map(col) as [never, ...never[]],
          foreignColumns: foreignColumns as [never, ...never[]],
          name: fk.getName(),
        });
        if (fk.onDelete) key = key.onDelete(fk.onDelete);
        if (fk.onUpdate) key = key.onUpdate(fk.onUpdate);
        return key;
      }),
    ];
  });
  byName.set(config.name, derived);
  return derived;
}

function isTable(value: unknown): value is SQLiteTable {
  try {
    getTableConfig(value as SQLiteTable);
    return typeof (value as { getSQL?: unknown }).getSQL === "function";
  } catch {
    return false;
  }
}

/** Every table of db/schema in its PostgreSQL form, under the same export names (typed as the SQLite ones). */
export const pgTables = Object.fromEntries(
  Object.entries(sqlite)
    .filter(([, value]) => isTable(value))
    .map(([key, value]) => [key, derive(value as SQLiteTable)]),
) as unknown as Pick<Tables, TableName>;

// Named exports, for drizzle-kit (it collects the tables a schema module exports).
export const {
  agents,
  apiKeys,
  approvals,
  auditLog,
  callJournal,
  checkpoints,
  events,
  memories,
  messages,
  sessions,
  settings,
  skills,
  toolCalls,
  toolVersions,
  tools,
  turns,
} = pgTables;
