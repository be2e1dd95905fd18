/**
 * Opening the database: the SQLite file in the data directory (the default), or PostgreSQL
 * when INSIKA_DATABASE_URL names one. Opened lazily (never at module load, which also runs
 * during `next build`). SQLite runs in WAL mode with foreign keys on, and is migrated from
 * db/migrations when it opens; PostgreSQL from db/migrations-pg when ready() first runs.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { Db } from "./database";
import { PostgresDatabase } from "./postgres-database";
import * as schema from "./schema";
import { processWide } from "./process-wide";
import { sqliteConnection, type SqliteConnection } from "./sqlite-connection";
import { SqliteDatabase } from "./sqlite-database";
import { startWalCheckpointer } from "./wal-checkpointer";

export type { Db } from "./database";

export const MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations");
export const PG_MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations-pg");

/** The process-wide SQLite connections by file: one map for every copy of this module. */
const processWideConnections = () => processWide<SqliteConnection>("sqliteConnections");

/**
 * Opens (and migrates) the SQLite file at `file`; `:memory:` works for tests. With
 * `backgroundCheckpoint`, a worker thread checkpoints the WAL instead of the commits of
 * this connection (wal-checkpointer.ts); the server's connection is opened so. With
 * `processWide`, every copy of this module in the process gets a handle on one connection
 * per file (and one checkpointer): their transactions wait for each other at its gate instead
 * of at SQLite's file lock, and a notification (Db.notify) reaches every copy's listeners.
 * Closing any handle on it closes it for all, and the next open starts a new one.
 */
export function openDb(
  file: string,
  options: { backgroundCheckpoint?: boolean; processWide?: boolean } = {},
): SqliteDatabase {
  const key = file === ":memory:" ? undefined : path.resolve(file);
  const shared = options.processWide && key ? processWideConnections().get(key) : undefined;
  if (shared && !shared.closing) return SqliteDatabase.on(shared);
  if (file !== ":memory:") createPrivately(file);
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  const orm = drizzle(sqlite, { schema });
  migrateKeepingRows(sqlite, orm);
  const checkpointer =
    options.backgroundCheckpoint && file !== ":memory:" ? startWalCheckpointer(sqlite, file) : undefined;
  const connection = sqliteConnection(sqlite, orm, async () => {
    if (key && processWideConnections().get(key) === connection) processWideConnections().delete(key);
    await checkpointer?.stop();
  });
  if (options.processWide && key) processWideConnections().set(key, connection);
  return SqliteDatabase.on(connection);
}

/** A PostgreSQL database at `url` (postgres://…); connected and migrated by its ready(). */
export function openPostgres(
  url: string,
  options: { poolSize?: number; processWide?: boolean } = {},
): PostgresDatabase {
  return PostgresDatabase.open(url, {
    poolSize: options.poolSize ?? 10,
    migrationsFolder: PG_MIGRATIONS_DIR,
    processWide: options.processWide,
  });
}

/**
 * The database holds tool definitions, transcripts and traces: its directory is created
 * 0700 and the file 0600 before SQLite opens it (SQLite gives the -wal and -shm files the
 * database file's mode); files left readable by an earlier version are tightened.
 */
function createPrivately(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(/*turbopackIgnore: true*/ file, "a", 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(/*turbopackIgnore: true*/ f).mode & 0o077) !== 0)
        fs.chmodSync(/*turbopackIgnore: true*/ f, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
}

/**
 * Applies the pending migrations with foreign keys off. drizzle runs them in one transaction,
 * where the migrations' own `PRAGMA foreign_keys=OFF` is a no-op; a table rebuild (how
 * SQLite changes a foreign key) then drops the old table with enforcement on, and the drop
 * cascades: rebuilding `sessions` would delete every turn. Off for the migration, the drop
 * deletes nothing; the check afterwards refuses to open a database whose rows the migration
 * left dangling, and enforcement is back on before anyone writes.
 */
function migrateKeepingRows(sqlite: Database.Database, orm: Parameters<typeof migrate>[0]): void {
  sqlite.pragma("foreign_keys = OFF");
  try {
    migrate(orm, { migrationsFolder: MIGRATIONS_DIR });
    const dangling = sqlite.pragma("foreign_key_check") as { table: string; parent: string }[];
    if (dangling.length > 0) {
      const first = dangling[0]!;
      throw new Error(
        `migration left ${dangling.length} row(s) with a dangling foreign key (first: ${first.table} -> ${first.parent})`,
      );
    }
  } finally {
    sqlite.pragma("foreign_keys = ON");
  }
}

/** Closes a connection (and the SQLite file's checkpointer). */
export function closeDb(db: Db): Promise<void> {
  return db.close();
}

/** The database file inside a data directory. */
export function dbFile(dataDir: string): string {
  return path.join(dataDir, "insika.db");
}

/** Where the data lives: the data directory, and the PostgreSQL URL when one is set. */
export interface DbLocation {
  dataDir: string;
  INSIKA_DATABASE_URL?: string | undefined;
  INSIKA_DATABASE_POOL?: number | undefined;
}

const handles = new Map<string, Db>();

/** One shared database per location for this process: PostgreSQL when a URL is set, else the data directory's file. */
export function getDb(where: DbLocation): Db {
  const url = where.INSIKA_DATABASE_URL;
  const key = url ?? where.dataDir;
  let db = handles.get(key);
  if (!db) {
    db = url
      ? openPostgres(url, { poolSize: where.INSIKA_DATABASE_POOL ?? 10, processWide: true })
      : openDb(dbFile(where.dataDir), { backgroundCheckpoint: true, processWide: true });
    handles.set(key, db);
  }
  return db;
}

/** Closes every database this process opened (CLI and tests). */
export async function closeAllDbs(): Promise<void> {
  const open = [...handles.values()];
  handles.clear();
  await Promise.all(open.map((db) => db.close()));
}
