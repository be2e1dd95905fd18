import { describe, expect, it } from "vitest";
import type { Db } from "@/db/database";
import { lanes, runWrites, WriteFailed, type FlushWrite } from "./flush-writes";

/** A transaction's handle as runWrites sees it: whether it pipelines, and that it stays open. */
const handle = (pipelined: boolean) => ({ pipelined, assertTransactionOpen() {} }) as unknown as Db;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes (in lanes `keys`, "" where undefined) that log when each starts and ends, each taking two turns of the event loop. */
function logged(keys: (string | undefined)[], fail: Record<number, unknown> = {}) {
  const log: string[] = [];
  const writes: FlushWrite[] = keys.map((key, i) => ({
    orderedWith: [key ?? ""],
    write: async () => {
      log.push(`start ${i}`);
      await tick();
      if (i in fail) throw fail[i];
      await tick();
      log.push(`end ${i}`);
      return i * 10;
    },
  }));
  return { log, writes };
}

/** What node-postgres raises for a statement the server refused (its DatabaseError is named "error"). */
const refusedBy = (code: string, message: string) => Object.assign(new Error(message), { name: "error", code });
const constraint = () => refusedBy("23505", "duplicate key value violates unique constraint");
const aborted = () => refusedBy("25P02", "current transaction is aborted");

describe("a flush's writes", () => {
  it("run one after another in queue order where statements run one at a time (SQLite)", async () => {
    const { log, writes } = logged(["a", "b", undefined]);
    await expect(runWrites(handle(false), writes, new Map())).resolves.toEqual([
      { ok: true, value: 0 },
      { ok: true, value: 10 },
      { ok: true, value: 20 },
    ]);
    expect(log).toEqual(["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"]);
  });

  it("on a pipelined transaction run side by side across turns, each turn's in its order, the keyless ones in theirs", async () => {
    const { log, writes } = logged(["a", "b", "a", undefined, "b", undefined]);
    const outcomes = await runWrites(handle(true), writes, new Map());
    expect(outcomes.map((o) => o.ok && o.value)).toEqual([0, 10, 20, 30, 40, 50]);
    // Lanes a (0, 2), b (1, 4) and the keyless one (3, 5) start together ...
    expect(log.slice(0, 3)).toEqual(["start 0", "start 1", "start 3"]);
    // ... and within a lane a write starts only once the one before it has ended.
    for (const [before, after] of [
      [0, 2],
      [1, 4],
      [3, 5],
    ])
      expect(log.indexOf(`start ${after}`)).toBeGreaterThan(log.indexOf(`end ${before}`));
  });

  it("skips a refused write, giving its refusal as its outcome", async () => {
    const refusal = new Error("lease lost");
    const { log, writes } = logged(["a", "b"]);
    const outcomes = await runWrites(handle(true), writes, new Map([[1, refusal]]));
    expect(outcomes).toEqual([
      { ok: true, value: 0 },
      { ok: false, error: refusal },
    ]);
    expect(log).not.toContain("start 1");
  });

  it("a write's own failure is WriteFailed, even when the other lanes then fail with the aborted transaction; thrown once every lane stopped", async () => {
    const { log, writes } = logged(["a", "b", "c", "b", "d"], { 0: aborted(), 1: constraint(), 2: aborted() });
    const failure = await runWrites(handle(true), writes, new Map()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WriteFailed);
    expect((failure as WriteFailed).index).toBe(1);
    expect(log).not.toContain("start 3"); // lane b stopped at its failed write
    const settled = log.length;
    await tick();
    await tick();
    expect(log).toHaveLength(settled); // nothing ran on after the throw
  });

  it("a failure of the transaction itself (not one write's) is thrown as it is", async () => {
    const lost = Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
    const { writes } = logged(["a", "b"], { 0: lost, 1: lost });
    await expect(runWrites(handle(true), writes, new Map())).rejects.toBe(lost);
    await expect(runWrites(handle(false), logged(["a"], { 0: lost }).writes, new Map())).rejects.toBe(lost);
  });

  it("share a lane when they share a name, directly or through another write's names", () => {
    const named = (...orderedWith: string[]): FlushWrite => ({ orderedWith, write: async () => undefined });
    // Turn starts naming their session and their key's rate: one key joins sessions 1 and 3.
    expect(lanes([named("s:1", "k:a"), named("s:2"), named("s:3", "k:a"), named("s:2"), named("t:9")])).toEqual([
      [0, 2],
      [1, 3],
      [4],
    ]);
    // A later write that names two lanes already formed joins them (and the writes before it).
    expect(lanes([named("a"), named("b"), named("c"), named("a", "b")])).toEqual([[0, 1, 3], [2]]);
    expect(lanes([named(), named(), named("x")])).toEqual([[0, 1], [2]]); // no name: the lane of the rest
  });
});
