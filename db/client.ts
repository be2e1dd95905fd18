/**
 * The SQLite connection. Opened lazily (never at module load, which also runs
 * during `next build`), in WAL mode with foreign keys on; migrations from
 * db/migrations are applied on first open.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";
import { startWalCheckpointer, type WalCheckpointer } from "./wal-checkpointer";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations");

const checkpointers = new WeakMap<Db, WalCheckpointer>();

/**
 * Opens (and migrates) the database file at `file`; `:memory:` works for tests. With
 * `backgroundCheckpoint`, a worker thread checkpoints the WAL instead of the commits of
 * this connection (wal-checkpointer.ts); the server's connection is opened so.
 */
export function openDb(file: string, options: { backgroundCheckpoint?: boolean } = {}): Db {
  if (file !== ":memory:") createPrivately(file);
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  migrateKeepingRows(db);
  if (options.backgroundCheckpoint && file !== ":memory:") checkpointers.set(db, startWalCheckpointer(sqlite, file));
  return db;
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
function migrateKeepingRows(db: Db): void {
  const sqlite = db.$client;
  sqlite.pragma("foreign_keys = OFF");
  try {
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
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

/** Closes a connection and stops its checkpointer. */
export function closeDb(db: Db): void {
  void checkpointers.get(db)?.stop();
  checkpointers.delete(db);
  db.$client.close();
}

/** The database file inside a data directory. */
export function dbFile(dataDir: string): string {
  return path.join(dataDir, "insika.db");
}

const handles = new Map<string, Db>();

/** One shared connection per data directory for this process. */
export function getDb(dataDir: string): Db {
  let db = handles.get(dataDir);
  if (!db) {
    db = openDb(dbFile(dataDir), { backgroundCheckpoint: true });
    handles.set(dataDir, db);
  }
  return db;
}

/** Closes every connection this process opened (CLI and tests). */
export function closeAllDbs(): void {
  for (const db of handles.values()) closeDb(db);
  handles.clear();
}
