import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDb, type Db } from "../client";
import { countAppliedMigrations, countSchemaObjects, getJournalMode } from "./database-info";

const opened: Array<{ db: Db; dir: string }> = [];
afterEach(() => {
  for (const { db, dir } of opened.splice(0)) {
    db.$client.close();
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
  it("counts every migration of the journal as applied on a fresh database", () => {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    expect(countAppliedMigrations(fileDb())).toBe(journal.entries.length);
  });

  it("counts the schema's objects, which grow with a new table", () => {
    const db = fileDb();
    const before = countSchemaObjects(db);
    expect(before).toBeGreaterThan(0);
    db.$client.exec("create table doctor_probe (k integer primary key)");
    expect(countSchemaObjects(db)).toBe(before + 1);
  });

  it("reads the journal mode: wal for a file, memory for :memory:", () => {
    expect(getJournalMode(fileDb())).toBe("wal");
    expect(getJournalMode(openDb(":memory:"))).toBe("memory");
  });
});
