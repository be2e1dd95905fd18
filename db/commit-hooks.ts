/**
 * The hooks a transaction's handle runs just before its transaction commits or its savepoint
 * is released, or before a savepoint opens on it (Db.beforeCommit): one per key until they run.
 * Both dialects' handles keep one.
 */
import type { Db } from "./database";

export class CommitHooks {
  private readonly hooks = new Map<string, (tx: Db) => Promise<void>>();

  /** Adds `hook` under `key` unless one is already waiting there; only a transaction's handle may. */
  add(handle: Db, key: string, hook: (tx: Db) => Promise<void>): void {
    if (!handle.inTransaction) throw new Error(`beforeCommit('${key}') outside a transaction`);
    if (!this.hooks.has(key)) this.hooks.set(key, hook);
  }

  /** Runs (and forgets) the hooks added so far, in the order they were added. */
  async run(handle: Db): Promise<void> {
    const hooks = [...this.hooks.values()];
    this.hooks.clear();
    for (const hook of hooks) await hook(handle);
  }
}
