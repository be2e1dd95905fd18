import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
