import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeDb, openDb } from "./client";
import type { SqliteDatabase } from "./sqlite-database";
import { SAFETY_NET_PAGES } from "./wal-checkpointer";

const opened: { db: SqliteDatabase; dir: string }[] = [];

function fresh(backgroundCheckpoint: boolean) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-wal-"));
  const file = path.join(dir, "insika.db");
  const db = openDb(file, { backgroundCheckpoint });
  opened.push({ db, dir });
  db.client.exec("create table wal_t (k integer primary key, v text not null)");
  return { db, file };
}

/** Bytes in the WAL file. */
const walBytes = (file: string) => fs.statSync(`${file}-wal`).size;

afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    if (db.client.open) await closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe("background WAL checkpointer", () => {
  it("raises the connection's own threshold and checkpoints the WAL from its worker", async () => {
    const { db, file } = fresh(true);
    expect(db.client.pragma("wal_autocheckpoint", { simple: true })).toBe(SAFETY_NET_PAGES);
    const insert = db.client.prepare("insert into wal_t (v) values (?)");
    for (let i = 0; i < 1_500; i += 1) insert.run("x".repeat(2_000)); // ~1,500 frames: past SQLite's own 1,000
    expect(walBytes(file)).toBeGreaterThan(1_000 * 4_096); // nothing checkpointed it on commit
    // The worker copies the frames back (the WAL file keeps its size; the next write rewinds it).
    const deadline = Date.now() + 5_000;
    let checkpointed = false;
    while (!checkpointed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      insert.run("y"); // a write after a complete checkpoint starts the WAL over
      checkpointed =
        (db.client.prepare("select count(*) as n from wal_t").get() as { n: number }).n > 0 &&
        fs.statSync(file).size > 1_000 * 2_000;
    }
    expect(checkpointed).toBe(true); // the rows reached the database file itself
  });

  it("leaves a connection without it on SQLite's default, and stops with the connection", async () => {
    const { db } = fresh(false);
    expect(db.client.pragma("wal_autocheckpoint", { simple: true })).toBe(1_000);
    const withWorker = fresh(true);
    await closeDb(withWorker.db);
    expect(withWorker.db.client.open).toBe(false);
  });
});
