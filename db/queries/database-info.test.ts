import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDb } from "../client";
import type { Db } from "../database";
import { countAppliedMigrations, countSchemaObjects, getJournalMode, migrationState } from "./database-info";

const opened: Array<{ db: Db; dir: string }> = [];
afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

function fileDb(): Db {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-dbinfo-"));
  const db = openDb(path.join(dir, "insika.db"));
  opened.push({ db, dir });
  return db;
}

describe("database info (doctor's queries)", () => {
  it("counts every migration of the journal as applied on a fresh database", async () => {
    const db = fileDb();
    const state = await migrationState(db);
    expect(state.applied).toBe(state.shipped);
    expect(state.current).toBe(true);
    expect(await countAppliedMigrations(db)).toBeGreaterThan(3);
  });

  it("is not current when the ledger lacks a migration", async () => {
    const db = fileDb();
    // By created_at (the migration's timestamp): on SQLite drizzle's `id serial` column is not a rowid alias and holds null.
    await db.execute(
      sql`delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)`,
    );
    expect(await countAppliedMigrations(db)).toBe((await migrationState(db)).shipped - 1);
    expect((await migrationState(db)).current).toBe(false);
  });

  it("counts the schema's objects, which grow with a new table", async () => {
    const db = fileDb();
    const before = await countSchemaObjects(db);
    expect(before).toBeGreaterThan(0);
    await db.execute(sql`create table doctor_probe (k integer primary key)`);
    expect(await countSchemaObjects(db)).toBe(before + 1);
  });

  it("reads the journal mode: wal for a file, memory for :memory:", async () => {
    expect(await getJournalMode(fileDb())).toBe("wal");
    const memory = openDb(":memory:");
    expect(await getJournalMode(memory)).toBe("memory");
    await memory.close();
  });
});
