import Database from "better-sqlite3";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { describe, expect, it } from "vitest";
import * as schema from "./schema";
import { SqliteDatabase } from "./sqlite-database";

function fixture(options: { gateWaitMs?: number } = {}) {
  const client = new Database(":memory:");
  client.exec("create table t (k integer primary key, v text not null)");
  const db = SqliteDatabase.over(client, drizzle(client, { schema }), undefined, options);
  const keys = () => (client.prepare("select k from t order by k").pluck().all() as number[]).join(",");
  const insert = (d: typeof db | Parameters<Parameters<typeof db.transaction>[0]>[0], k: number) =>
    d.execute(sql`insert into t (k, v) values (${k}, 'x')`);
  return { db, client, keys, insert };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("SqliteDatabase: a transaction holds the connection across its awaits", () => {
  it("a statement of another caller waits for the transaction instead of joining it", async () => {
    const { db, client, keys, insert } = fixture();
    let outsideDone = false;
    const tx = db.transaction(async (t) => {
      await insert(t, 1);
      // Another request writes while this transaction is open…
      const outside = insert(db, 2).then(() => (outsideDone = true));
      await tick();
      await tick();
      expect(outsideDone).toBe(false); // …it waits at the gate
      expect(client.inTransaction).toBe(true);
      throw Object.assign(new Error("undo"), { outside });
    });
    const error = (await tx.catch((e: unknown) => e)) as Error & { outside: Promise<unknown> };
    expect(error.message).toBe("undo");
    await error.outside;
    // The rollback undid the transaction's own write only: the other caller's write stands.
    expect(keys()).toBe("2");
    expect(outsideDone).toBe(true);
  });

  it("a savepoint that fails is undone alone; the transaction commits the rest", async () => {
    const { db, keys, insert } = fixture();
    await db.transaction(async (t) => {
      await insert(t, 1);
      await expect(
        t.transaction(async (s) => {
          await insert(s, 2);
          await insert(s, 1); // duplicate key
        }),
      ).rejects.toThrow(/UNIQUE/);
      await insert(t, 3);
    });
    expect(keys()).toBe("1,3");
  });

  it("tells listeners of a transaction's notification after its commit, and never after a rollback", async () => {
    const { db } = fixture();
    const heard: string[] = [];
    await db.listen("ch", (payload) => heard.push(payload));
    await db.transaction(async (t) => {
      await t.notify("ch", "committed");
      expect(heard).toEqual([]);
    });
    await db
      .transaction(async (t) => {
        await t.notify("ch", "rolled back");
        throw new Error("no");
      })
      .catch(() => undefined);
    expect(heard).toEqual(["committed"]);
  });

  it("a statement on the root handle inside a transaction fails with a clear error instead of waiting forever", async () => {
    const { db, insert } = fixture({ gateWaitMs: 50 });
    await expect(db.transaction(async () => insert(db, 1))).rejects.toThrow(
      /database busy: .*a statement on the root handle inside a transaction waits for itself/,
    );
  });

  it("transactions of concurrent callers run one after the other", async () => {
    const { db, client } = fixture();
    const order: string[] = [];
    await Promise.all(
      [1, 2, 3].map((k) =>
        db.transaction(async (t) => {
          order.push(`begin ${k}`);
          await t.execute(sql`insert into t (k, v) values (${k}, 'x')`);
          await tick();
          order.push(`end ${k}`);
        }),
      ),
    );
    expect(order).toEqual(["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"]);
    expect(client.prepare("select count(*) from t").pluck().get()).toBe(3);
  });

  it("runs a beforeCommit statement once per key at its handle's end or before a savepoint opens, and forgets an undone savepoint's", async () => {
    const { db, client } = fixture();
    const ran: string[] = [];
    const hook = (name: string) => () => {
      ran.push(name);
      return sql`insert into t (k, v) values (${ran.length}, ${name})`;
    };
    await db.transaction(async (tx) => {
      tx.beforeCommit("outer", hook("held before the savepoints"));
      tx.beforeCommit("outer", hook("asked twice"));
      await tx.transaction(async (savepoint) => savepoint.beforeCommit("kept", hook("released savepoint")));
      await tx
        .transaction(async (savepoint) => {
          savepoint.beforeCommit("undone", hook("undone savepoint"));
          throw new Error("undo");
        })
        .catch(() => undefined);
      tx.beforeCommit("outer", hook("held after them"));
      expect(ran).toEqual(["held before the savepoints", "released savepoint"]);
    });
    const order = ["held before the savepoints", "released savepoint", "held after them"];
    expect(ran).toEqual(order);
    expect(client.prepare("select v from t order by k").pluck().all()).toEqual(order);
    expect(() => db.beforeCommit("root", hook("never"))).toThrow(/outside a transaction/);
  });
});
