/**
 * What `insika doctor` and GET /v1/ready report about the database itself: the dialect's
 * catalog, the journal mode (SQLite) and drizzle's migration ledger, which no schema table
 * describes.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from "../client";
import type { Db } from "../database";

/** Tables, indexes, triggers and views in the database (SQLite: sqlite_master; PostgreSQL: the public schema's relations). */
export async function countSchemaObjects(db: Db): Promise<number> {
  const [row] = await db.execute<{ n: number | string }>(
    db.dialect === "postgres"
      ? sql`select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'`
      : sql`select count(*) as n from sqlite_master`,
  );
  return Number(row?.n ?? 0);
}

/** The journal mode in force ("wal" is the one Insika sets); PostgreSQL has none to report. */
export async function getJournalMode(db: Db): Promise<string | null> {
  if (db.dialect === "postgres") return null;
  const [row] = await db.execute<{ journal_mode: string }>(sql`pragma journal_mode`);
  return String(row?.journal_mode);
}

/** Migrations drizzle recorded as applied. */
export async function countAppliedMigrations(db: Db): Promise<number> {
  const [row] = await db.execute<{ n: number | string }>(
    db.dialect === "postgres"
      ? sql`select count(*) as n from drizzle.__drizzle_migrations`
      : sql`select count(*) as n from __drizzle_migrations`,
  );
  return Number(row?.n ?? 0);
}

/** How many migrations this build ships for the database's dialect. */
export function countShippedMigrations(db: Db): number {
  const dir = db.dialect === "postgres" ? PG_MIGRATIONS_DIR : MIGRATIONS_DIR;
  const journal = JSON.parse(fs.readFileSync(path.join(dir, "meta", "_journal.json"), "utf8")) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

export interface MigrationState {
  applied: number;
  shipped: number;
  current: boolean;
}

/** Whether the database holds every migration this build ships (and none it does not know). */
export async function migrationState(db: Db): Promise<MigrationState> {
  const applied = await countAppliedMigrations(db);
  const shipped = countShippedMigrations(db);
  return { applied, shipped, current: applied === shipped };
}
