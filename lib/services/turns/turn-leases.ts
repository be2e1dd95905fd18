/**
 * Ownership of running turns. A running turn belongs to one process start (its
 * instance id, random per start, never a PID: a PID can be a zombie's or reused) for as long
 * as that owner keeps renewing the turn's lease. The owner renews every fifth of the lease
 * (default lease INSIKA_TURN_LEASE = 15 s, so every 3 s; five missed beats before anyone may
 * take over). The same timer runs the resume pass: any process takes over a turn whose
 * lease has expired, with claimTurn's compare-and-swap, so two processes never run a turn
 * at once; and every write of a run is fenced on still owning the lease (turn-recorder.ts),
 * so an owner that stalled past its lease cannot write (or send a call) once taken over. A
 * process that stops gives the leases of its turns still running up, so they are taken over
 * at the next resume pass rather than once their leases run out.
 * Lease times are this machine's clock: SQLite is local, so every process shares it.
 */
import crypto from "node:crypto";
import type { Db } from "@/db/database";
import { claimTurn, releaseLeases, renewLeases } from "@/db/queries/leases";
import { getEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import { onShutdown } from "@/lib/shutdown-tasks";
import { beginStopping, isStopping, leasedTurnIds, noteLeaseHeld, trackLeaseWrite } from "./active-turns";

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

/**
 * The lease a claim or a new turn takes now. Once the process stops, a lease it takes (a turn a
 * running one starts in its last moments) has expired already: another instance takes it over.
 */
export function newLease(now = Date.now()) {
  return { instance: instanceId(), pid: process.pid, now, leaseMs: isStopping() ? 0 : leaseMs() };
}

/**
 * Claims a turn for this process (claimTurn) such that a stop waits for the claim to commit
 * before it gives its leases up; refused (409) once the process stops. Resolves with the lease
 * when claimed, else undefined (someone else holds the turn, or it is not `from` any more).
 */
export async function claimHere(db: Db, turnId: string, from: "waiting" | "running") {
  if (isStopping())
    throw new DomainError("conflict", "this server is stopping; another instance (or its restart) resumes the turn");
  const lease = newLease();
  return (await trackLeaseWrite(claimTurn(db, { ...lease, turnId, from }))) ? lease : undefined;
}

/** Renews the leases of the turns running here; returns how many were renewed. */
export async function renewActiveLeases(db: Db, now = Date.now()): Promise<number> {
  const ids = leasedTurnIds();
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
 * Gives up every lease of this process on a running turn (a process about to exit; call after
 * beginStopping, so that none is taken after it): another process, or this one's next start,
 * takes the turn over at its next resume pass instead of a lease's length later. A run still
 * going here keeps writing until one does; its writes are refused from then on.
 */
export function releaseOwnLeases(db: Db, now = Date.now()): Promise<number> {
  return releaseLeases(db, { instance: instanceId(), now });
}

/**
 * Starts (once per process) the heartbeat: renew this process's leases, then, with
 * `resumePass`, take over what has become free. It does not keep the process alive. At
 * shutdown (lib/shutdown-tasks.ts) it stops, and the process gives its leases up.
 */
export function startTurnLeases(db: Db, resumePass?: () => Promise<unknown>): void {
  const holder = globalThis as unknown as Holder;
  if (holder[TIMER]) return;
  let beat: Promise<void> | undefined;
  const timer = setInterval(() => {
    // One beat at a time: a slow database must not stack beats up.
    if (beat) return;
    beat = (async () => {
      try {
        await renewActiveLeases(db);
        await resumePass?.();
      } catch (error) {
        log.error("turn lease heartbeat failed", describeError(error));
      } finally {
        beat = undefined;
      }
    })();
  }, heartbeatMs());
  timer.unref();
  holder[TIMER] = timer;
  onShutdown("turn leases", async () => {
    clearInterval(timer);
    // From here on no turn is claimed and no lease is noted as held; the claims and turn
    // inserts already sent, and a beat in progress (a renewal), commit before the release.
    const settled = beginStopping();
    await beat;
    await settled;
    const released = await releaseOwnLeases(db);
    if (released > 0) log.info("gave up the leases of the turns still running here", { turns: released });
  });
}
