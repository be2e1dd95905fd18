/**
 * Ownership of running turns. A running turn belongs to one process start (its
 * instance id, random per start, never a PID: a PID can be a zombie's or reused) for as long
 * as that owner keeps renewing the turn's lease. The owner renews every fifth of the lease
 * (default lease INSIKA_TURN_LEASE = 15 s, so every 3 s; five missed beats before anyone may
 * take over). The same timer runs the resume pass: any process takes over a turn whose
 * lease has expired, with claimTurn's compare-and-swap, so two processes never run a turn
 * at once; and every write of a run is fenced on still owning the lease (turn-recorder.ts),
 * so an owner that stalled past its lease cannot write (or send a call) once taken over.
 * Lease times are this machine's clock: SQLite is local, so every process shares it.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/database";
import { renewLeases } from "@/db/queries/leases";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { activeTurnIds, noteLeaseHeld } from "./active-turns";

const INSTANCE = Symbol.for("insika.instanceId");
const TIMER = Symbol.for("insika.turnLeases");

type Holder = Record<symbol, unknown>;

/** This process start's instance id (one per process, whichever module copy asks). */
export function instanceId(): string {
  const holder = globalThis as unknown as Holder;
  return ((holder[INSTANCE] as string | undefined) ??= `ins_${crypto.randomBytes(9).toString("base64url")}`);
}

/** How long a lease holds without renewal, in ms. */
export function leaseMs(): number {
  return Math.round(getEnv().INSIKA_TURN_LEASE * 1000);
}

/** How often the owner renews and the resume pass runs: a fifth of the lease, 0.2–5 s. */
export function heartbeatMs(lease = leaseMs()): number {
  return Math.min(5_000, Math.max(200, Math.round(lease / 5)));
}

/** The lease a claim or a new turn takes now. */
export function newLease(now = Date.now()) {
  return { instance: instanceId(), pid: process.pid, now, leaseMs: leaseMs() };
}

/** Renews the leases of the turns running here; returns how many were renewed. */
export async function renewActiveLeases(db: Db, now = Date.now()): Promise<number> {
  const ids = activeTurnIds();
  const until = now + leaseMs();
  const renewed = await renewLeases(db, { instance: instanceId(), turnIds: ids, until });
  // All renewed: each is ours until then (fewer: which one was lost is unknown, so none is noted).
  if (renewed === ids.length) for (const id of ids) noteLeaseHeld(id, until);
  // Fewer renewed than running: a turn was taken over while this process stalled; its own
  // writes are fenced and will stop it.
  if (renewed < ids.length)
    log.warn("turn lease lost: another process took over", { running_here: ids.length, renewed });
  return renewed;
}

/**
 * Starts (once per process) the heartbeat: renew this process's leases, then, with
 * `resumePass`, take over what has become free. It does not keep the process alive.
 */
export function startTurnLeases(db: Db, resumePass?: () => Promise<unknown>): void {
  const holder = globalThis as unknown as Holder;
  if (holder[TIMER]) return;
  let beating = false;
  const timer = setInterval(() => {
    // One beat at a time: a slow database must not stack beats up.
    if (beating) return;
    beating = true;
    void (async () => {
      try {
        await renewActiveLeases(db);
        await resumePass?.();
      } catch (error) {
        log.error("turn lease heartbeat failed", describeError(error));
      } finally {
        beating = false;
      }
    })();
  }, heartbeatMs());
  timer.unref();
  holder[TIMER] = timer;
}
