/**
 * The statements a transaction's handle writes just before its transaction commits or its
 * savepoint is released, or before a savepoint opens on it (Db.beforeCommit): one per key
 * until they are taken. Both dialects' handles keep one.
 */
import type { SQL } from "drizzle-orm";
import type { Db } from "./database";

export class CommitHooks {
  private readonly builders = new Map<string, () => SQL>();

  /** Adds `build` under `key` unless one is already waiting there; only a transaction's handle may. */
  add(handle: Db, key: string, build: () => SQL): void {
    if (!handle.inTransaction) throw new Error(`beforeCommit('${key}') outside a transaction`);
    if (!this.builders.has(key)) this.builders.set(key, build);
  }

  /** Builds (and forgets) the statements added so far, in the order they were added. */
  take(): SQL[] {
    const builders = [...this.builders.values()];
    this.builders.clear();
    return builders.map((build) => build());
  }
}
