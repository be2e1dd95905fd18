import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeDb, openDb } from "./client";
import type { SqliteDatabase } from "./sqlite-database";
import Database from "better-sqlite3";
import { SAFETY_NET_PAGES, startWalCheckpointer, type CheckpointPass, type WalCheckpointer } from "./wal-checkpointer";

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

const workers: { checkpointer: WalCheckpointer; client: Database.Database; dir: string }[] = [];

/** A WAL database with a checkpointer that reports its passes. */
function watched() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-wal-"));
  const file = path.join(dir, "insika.db");
  const client = new Database(file);
  client.pragma("journal_mode = WAL");
  client.exec("create table wal_t (k integer primary key, v text not null)");
  const passes: CheckpointPass[] = [];
  const checkpointer = startWalCheckpointer(client, file, { onPass: (pass) => passes.push(pass) });
  workers.push({ checkpointer, client, dir });
  return { client, passes };
}

/** Waits (at most 5 s) until `passes` holds one that `wanted` accepts. */
async function passWhere(passes: CheckpointPass[], wanted: (pass: CheckpointPass) => boolean) {
  const deadline = Date.now() + 5_000;
  while (!passes.some(wanted) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return passes.find(wanted);
}

afterEach(async () => {
  for (const { checkpointer, client, dir } of workers.splice(0)) {
    await checkpointer.stop();
    client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
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

  it("passes as soon as many frames were written, and after an interval for a few", async () => {
    const { client, passes } = watched();
    const insert = client.prepare("insert into wal_t (v) values (?)");
    // Read off the WAL index: 1,500 frames is past the frames that make the worker pass at once.
    for (let i = 0; i < 1_500; i += 1) insert.run("x".repeat(2_000));
    const byFrames = await passWhere(passes, (pass) => pass.pass === "frames");
    expect(byFrames?.frames).toBeGreaterThanOrEqual(1_000);
    expect(byFrames?.copied).toBeGreaterThan(0);
    // A few frames wait for the interval; a WAL with nothing new is left alone.
    const before = passes.length;
    insert.run("y");
    const byTime = await passWhere(passes, (pass) => passes.indexOf(pass) >= before && pass.pass === "interval");
    expect(byTime).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 600)); // past any pass still due
    const last = passes.at(-1);
    expect(last?.copied).toBe(last?.frames); // everything copied back
    const settled = passes.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(passes.length).toBe(settled);
  });
});
