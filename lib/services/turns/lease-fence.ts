/**
 * The fence of a run's writes (turn-leases.ts has the leases themselves): a turn's writes go
 * through the group commit only while this process still owns the turn. A write of a turn
 * taken over fails with LeaseLostError, without running.
 */
import type { Db } from "@/db/database";
import { heldLeases } from "@/db/queries/leases";
import { DomainError } from "@/lib/errors";
import { leaseHeldUntil } from "./active-turns";
import type { FlushCheck } from "./group-commit";

/** A run's write found its turn owned by another process (its lease was taken over). */
export class LeaseLostError extends DomainError {
  override name = "LeaseLostError";
  /** What a turn that meets it fails with (lib/engine/turn-failure.ts), were its end still recorded. */
  readonly failureCode = "lease_lost";
  constructor(turnId: string) {
    super("conflict", `turn '${turnId}' was taken over by another process (this process's lease on it had expired)`);
  }
}

/**
 * The check the recorder hands the group commit with each write of a run of `turnId`: before a
 * flush runs its writes, one read of the lease rows of every turn of `instance` with a write in
 * it (the leases surely held are not read).
 */
export function leaseFence(instance: string, turnId: string): FlushCheck {
  return {
    name: `lease:${instance}`,
    key: turnId,
    async passing(tx, turnIds) {
      const unsure = turnIds.filter((id) => !leaseSurelyHeld(tx, id));
      if (unsure.length === 0) return new Set(turnIds);
      const held = await heldLeases(tx, { instance, turnIds: unsure });
      for (const id of turnIds) if (!unsure.includes(id)) held.add(id);
      return held;
    },
    refuse: (id) => new LeaseLostError(id),
  };
}

/**
 * Whether the fence may skip its read: on SQLite, inside the write transaction, while a lease
 * this process committed has not expired. A takeover needs the lease expired by the claimer's
 * clock, which on SQLite (one machine) is this clock, and needs the write lock this transaction
 * holds; so until then no one else can own the turn. Not on PostgreSQL: the claimer may be
 * another machine, whose clock may run ahead; there the row is read (and locked) every flush.
 */
function leaseSurelyHeld(tx: Db, turnId: string): boolean {
  return tx.dialect === "sqlite" && Date.now() < leaseHeldUntil(turnId);
}
