import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { groupCommit } from "./group-commit";

function fixture() {
  const db = openDb(":memory:");
  db.client.exec("create table gc_t (k integer primary key, v text not null)");
  const insert = db.client.prepare("insert into gc_t (k, v) values (?, ?)");
  const count = () => (db.client.prepare("select count(*) as n from gc_t").get() as { n: number }).n;
  return { db, insert, count };
}

describe("group commit", () => {
  it("commits the writes of one tick in one transaction and resolves each only after the commit", async () => {
    const { db, insert, count } = fixture();
    const seen: boolean[] = [];
    const writes = [1, 2, 3].map((k) =>
      groupCommit(db, async () => {
        seen.push(db.client.inTransaction);
        return insert.run(k, `v${k}`).changes;
      }),
    );
    expect(count()).toBe(0); // nothing is written before the flush
    await expect(Promise.all(writes)).resolves.toEqual([1, 1, 1]);
    expect(seen).toEqual([true, true, true]);
    expect(count()).toBe(3);
    expect(db.client.inTransaction).toBe(false);
  });

  it("commits a write queued alone on the next turn of the event loop", async () => {
    const { db, insert } = fixture();
    let turns = 0;
    const tick = () => {
      turns += 1;
      if (turns < 20) setImmediate(tick);
    };
    setImmediate(tick);
    await groupCommit(db, async () => insert.run(1, "alone"));
    expect(turns).toBeLessThanOrEqual(2); // no other write came: nothing to wait for
  });

  it("gathers into one flush the writes queued on the next turns of the event loop while they keep coming", async () => {
    const { db, insert } = fixture();
    const run: number[] = [];
    const write = (k: number) => groupCommit(db, async () => (run.push(k), insert.run(k, `v${k}`)));
    const first = write(1).then(() => [...run]);
    const rest = [write(11)]; // two writes in one tick: the process is busy, so the flush gathers
    await new Promise(setImmediate);
    rest.push(write(2));
    await new Promise(setImmediate);
    rest.push(write(3));
    // Written by the flush that committed the first write: the later two joined it.
    await expect(first).resolves.toEqual([1, 11, 2, 3]);
    await Promise.all(rest);
  });

  it("stops gathering after a few turns of the event loop when writes never stop coming", async () => {
    const { db, insert } = fixture();
    let turns = 0;
    let producing = true;
    const more: Promise<unknown>[] = [];
    const produce = () => {
      if (!producing) return;
      turns += 1;
      const k = 1000 + turns;
      more.push(groupCommit(db, async () => insert.run(k, "more")));
      setImmediate(produce);
    };
    const first = groupCommit(db, async () => insert.run(1, "first")).then(() => turns);
    void groupCommit(db, async () => insert.run(2, "second"));
    setImmediate(produce);
    const waited = await first;
    producing = false;
    expect(waited).toBeGreaterThan(1); // it did wait for the stream
    expect(waited).toBeLessThanOrEqual(10); // but not for its end
    await Promise.all(more);
  });

  it("undoes and rejects only a write that fails on its own; the others of the flush commit", async () => {
    const { db, insert, count } = fixture();
    const results = await Promise.allSettled([
      groupCommit(db, async () => insert.run(1, "a")),
      groupCommit(db, async () => {
        insert.run(2, "b"); // undone with the savepoint of this write
        insert.run(1, "duplicate");
      }),
      groupCommit(db, async () => {
        throw new Error("bad value");
      }),
      groupCommit(db, async () => insert.run(3, "c")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(db.client.prepare("select k from gc_t order by k").pluck().all()).toEqual([1, 3]);
    expect(count()).toBe(2);
  });

  it("rejects every write of a flush that fails as a whole, and writes nothing of it", async () => {
    const { db, insert, count } = fixture();
    const results = await Promise.allSettled([
      groupCommit(db, async () => insert.run(1, "a")),
      groupCommit(db, async () => db.client.exec("rollback")), // the transaction is gone: the flush cannot commit
      groupCommit(db, async () => insert.run(2, "b")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(count()).toBe(0);
    await expect(groupCommit(db, async () => insert.run(4, "d"))).resolves.toMatchObject({ changes: 1 }); // the queue goes on
  });

  it("runs the writes of a flush with a failing one again, each once in what is committed", async () => {
    const { db, insert, count } = fixture();
    let runs = 0;
    const results = await Promise.allSettled([
      groupCommit(db, async () => {
        runs += 1;
        return insert.run(1, "a").changes;
      }),
      groupCommit(db, async () => insert.run(1, "duplicate")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected"]);
    expect(runs).toBe(2); // the plain transaction, rolled back, then the isolated one
    expect(count()).toBe(1);
    let alone = 0;
    await groupCommit(db, async () => ((alone += 1), insert.run(2, "b")));
    expect(alone).toBe(1); // nothing failed: one run
  });
});

describe("group commit durability", () => {
  it("commits a flush holding a durable write with synchronous=FULL, and goes back to NORMAL after", async () => {
    const { db, insert } = fixture();
    const level = () => db.client.pragma("synchronous", { simple: true });
    expect(level()).toBe(1); // NORMAL: the connection's default
    const seen: unknown[] = [];
    await Promise.all([
      groupCommit(db, async () => seen.push(["plain", level(), insert.run(1, "a").changes])),
      groupCommit(db, async () => seen.push(["durable", level(), insert.run(2, "b").changes]), { durable: true }),
    ]);
    // One flush, one commit: the setting that commit runs with is FULL for both writes in it.
    expect(seen).toEqual([
      ["plain", 2, 1],
      ["durable", 2, 1],
    ]);
    expect(level()).toBe(1);
    await groupCommit(db, async () => seen.push(["later", level()]));
    expect(seen.at(-1)).toEqual(["later", 1]);
  });

  it("restores NORMAL when the durable flush fails", async () => {
    const { db } = fixture();
    await expect(groupCommit(db, async () => db.client.exec("commit"), { durable: true })).rejects.toThrow();
    expect(db.client.pragma("synchronous", { simple: true })).toBe(1);
  });

  it("holds a lazy write for the next eager flush, or flushes it alone a moment later", async () => {
    const { db, insert, count } = fixture();
    const lazy = groupCommit(db, async () => insert.run(1, "a").changes, { lazy: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(0); // no flush of its own at once
    const eager = groupCommit(db, async () => insert.run(2, "b").changes);
    await expect(Promise.all([lazy, eager])).resolves.toEqual([1, 1]);
    expect(count()).toBe(2);
    // Alone, it is committed anyway, soon.
    await expect(groupCommit(db, async () => insert.run(3, "c").changes, { lazy: true })).resolves.toBe(1);
    expect(count()).toBe(3);
  });

  it("checks a precondition once per flush for every write that shares it, and runs none that fails it", async () => {
    const { db, insert, count } = fixture();
    const asked: string[][] = [];
    const check = (key: string) => ({
      name: "owner",
      key,
      passing: async (_tx: unknown, keys: string[]) => {
        asked.push(keys);
        return new Set(keys.filter((k) => k !== "lost"));
      },
      refuse: (k: string) => new Error(`${k} refused`),
    });
    const writes = [
      groupCommit(db, async () => insert.run(1, "a").changes, { check: check("kept") }),
      groupCommit(db, async () => insert.run(2, "b").changes, { check: check("lost") }),
      groupCommit(db, async () => insert.run(3, "c").changes, { check: check("kept") }),
      groupCommit(db, async () => insert.run(4, "d").changes),
    ];
    const settled = await Promise.allSettled(writes);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual([
      1,
      "lost refused",
      1,
      1,
    ]);
    expect(asked).toEqual([["kept", "lost"]]);
    expect(count()).toBe(3);
  });
});
