/**
 * How a stopping process gives its leases up (turn-leases.ts's shutdown task): the order of
 * beginStopping, the lease writes in flight and the release, and what is refused after it.
 * A file of its own: stopping is process-wide and cannot be undone.
 */
import { describe, expect, it } from "vitest";
import { getCheckpoint } from "@/db/queries/checkpoints";
import { insertRunningTurn, sessionDb } from "@/test/support/running-turns";
import { claimTurn } from "@/db/queries/leases";
import {
  beginStopping,
  isTurnActive,
  leaseHeldUntil,
  leasedTurnIds,
  markTurnActive,
  noteLeaseHeld,
} from "./active-turns";
import { LeaseLostError } from "./lease-fence";
import { resumeTurn } from "./resume-turn";
import { claimHere, instanceId, newLease, releaseOwnLeases } from "./turn-leases";
import { TurnRecorder } from "./turn-recorder";

describe("a stopping process's leases", () => {
  it("waits for a claim in flight, notes no lease after it, gives every lease up, and claims nothing more", async () => {
    const db = await sessionDb();
    // "t": its dead owner's lease ran out; "mine": running here on a lease known to hold.
    await insertRunningTurn(db, "t", { instance: "ins_dead", leaseUntil: 1_000 });
    const until = Date.now() + 60_000;
    await insertRunningTurn(db, "mine", { instance: instanceId(), leaseUntil: until });
    markTurnActive("mine");
    noteLeaseHeld("mine", until);
    // A resume reserved "t" and is claiming it: not renewed (it holds no lease of ours yet).
    markTurnActive("t", { claiming: true });
    expect(leasedTurnIds()).toEqual(["mine"]);

    // A flush holds the connection, so the claim waits behind it when the stop begins.
    let finishFlush!: () => void;
    let flushOpen!: () => void;
    const opened = new Promise<void>((resolve) => (flushOpen = resolve));
    const flush = db.transaction(() => {
      flushOpen();
      return new Promise<void>((resolve) => (finishFlush = resolve));
    });
    await opened;
    const claim = claimHere(db, "t", "running");
    const settled = beginStopping();
    expect(leaseHeldUntil("mine")).toBe(0); // from now on every fence reads its row
    let stopped = false;
    void settled.then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false); // the stop waits for the claim stuck behind the flush
    finishFlush();
    await settled;
    expect((await getCheckpoint(db, "t"))?.runnerInstance).toBe(instanceId());
    await flush;
    const lease = await claim;
    expect(lease).toBeDefined();
    noteLeaseHeld("t", lease!.now + lease!.leaseMs); // what the resume does next: noted no more
    expect(leaseHeldUntil("t")).toBe(0);

    const stoppedAt = Date.now();
    expect(await releaseOwnLeases(db, stoppedAt)).toBe(2);
    for (const id of ["t", "mine"]) expect((await getCheckpoint(db, id))?.leaseExpiresAt, id).toBe(stoppedAt);

    // Another instance takes "t" over at once; this process's next write for it is refused.
    const recorder = await TurnRecorder.open(db, "t", "s", { lease: { instance: instanceId() } });
    expect(
      await claimTurn(db, {
        turnId: "t",
        instance: "ins_next",
        pid: 2,
        now: stoppedAt,
        leaseMs: 15_000,
        from: "running",
      }),
    ).toBe(true);
    await expect(recorder.emit({ type: "text_delta", text: "late" })).rejects.toBeInstanceOf(LeaseLostError);

    // Nothing is claimed any more, and a lease taken now (a turn started in the last moment) has expired already.
    await expect(claimHere(db, "mine", "running")).rejects.toThrow(/this server is stopping/);
    await insertRunningTurn(db, "w", { instance: "ins_dead", leaseUntil: 1_000 });
    db.client.prepare("update turns set status = 'waiting' where id = 'w'").run(); // its approval decided
    await expect(resumeTurn(db, "w")).rejects.toThrow(/this server is stopping/);
    expect(isTurnActive("w")).toBe(false);
    expect(newLease().leaseMs).toBe(0);
  });
});
