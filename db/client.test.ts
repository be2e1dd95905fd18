import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { closeDb, dbFile, openDb } from "./client";
import { tempDir } from "@/test/support/temp-dir";

const mode = (f: string) => fs.statSync(f).mode & 0o777;

describe("openDb file permissions", () => {
  it("creates the data directory 0700 and the database, WAL and SHM files 0600", async () => {
    const root = tempDir("insika-db-");
    const dataDir = path.join(root, "data");
    const file = dbFile(dataDir);
    const previous = process.umask(0o022);
    try {
      const db = openDb(file);
      db.client.prepare("create table t (x)").run();
      expect(mode(dataDir)).toBe(0o700);
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f)).toBe(0o600);
      await closeDb(db);
    } finally {
      process.umask(previous);
    }
  });

  it("tightens a database file an earlier version left readable", async () => {
    const dir = tempDir("insika-db-");
    const file = dbFile(dir);
    await closeDb(openDb(file));
    fs.chmodSync(file, 0o644);
    const db = openDb(file);
    expect(mode(file)).toBe(0o600);
    await closeDb(db);
  });
});

describe("getDb in a server process", () => {
  it("gives every copy of the module a handle on one SQLite connection, gate and notifications per file", async () => {
    const where = { dataDir: tempDir("insika-db-") };
    // Two copies of the module, as Next.js gives the server's start-up work, routes and pages.
    vi.resetModules();
    const first = (await import("./client")).getDb(where);
    vi.resetModules();
    const second = (await import("./client")).getDb(where);
    expect(second).not.toBe(first);
    const heard: string[] = [];
    await second.listen("ch", (payload) => heard.push(payload));
    // A transaction of one copy holds the connection across an await: the other copy's
    // statement waits for it at the gate (on a second connection it would wait on SQLite's
    // file lock, blocking the event loop, or not see the uncommitted table)...
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = first.transaction(async (tx) => {
      await tx.execute(sql`create table t (k integer primary key)`);
      await tx.execute(sql`insert into t (k) values (1)`);
      await tx.notify("ch", "committed");
      await gate;
    });
    const write = second.execute(sql`insert into t (k) values (2)`).then(() => "written");
    // ...and so does a transaction of the other copy (it would otherwise interleave on the connection).
    const other = second
      .transaction(async (tx) => {
        await tx.execute(sql`insert into t (k) values (3)`);
      })
      .then(() => "committed");
    const waiting = new Promise((resolve) => setTimeout(() => resolve("waiting"), 100));
    expect(await Promise.race([write, other, waiting])).toBe("waiting");
    expect(heard).toEqual([]);
    release();
    await held;
    expect(await write).toBe("written");
    expect(await other).toBe("committed");
    // The notification of one copy's commit reached the other copy's listener.
    expect(heard).toEqual(["committed"]);
    expect(await second.execute(sql`select k from t order by k`)).toEqual([{ k: 1 }, { k: 2 }, { k: 3 }]);
    await first.close();
    // Closed for every copy, and forgotten: the next open of the file starts a new connection.
    await expect(second.execute(sql`select 1`)).rejects.toThrow(/not open/);
    const reopened = openDb(dbFile(where.dataDir), { processWide: true });
    expect(await reopened.execute(sql`select count(*) as n from t`)).toEqual([{ n: 3 }]);
    await reopened.close();
  });
});
