/**
 * What `insika doctor` reports about the database file itself: SQLite's catalog and
 * pragmas and drizzle's migration ledger, which no schema table describes.
 */
import type { Db } from "../client";

/** Tables, indexes, triggers and views in the database (sqlite_master). */
export function countSchemaObjects(db: Db): number {
  return (db.$client.prepare("select count(*) as n from sqlite_master").get() as { n: number }).n;
}

/** The journal mode in force ("wal" is the one Insika sets). */
export function getJournalMode(db: Db): string {
  return String(db.$client.pragma("journal_mode", { simple: true }));
}

/** Migrations drizzle recorded as applied. */
export function countAppliedMigrations(db: Db): number {
  return (db.$client.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number }).n;
}
