/**
 * Following a turn from any instance (GET /v1/turns/:id/events): its recorded events after a
 * seq, in order, as they are committed, until a terminal event (turn_completed, turn_halted,
 * turn_waiting, turn_failed). The feed reads the database, never the process running the
 * turn: the recorder's group commit notifies TURN_EVENTS_CHANNEL with the turn id when it
 * commits events (LISTEN/NOTIFY across a PostgreSQL fleet, in process on SQLite), and a
 * follower that hears nothing looks again every POLL_MS, so a lost notification (or a second
 * process on one SQLite file) only delays it.
 */
import type { Db } from "@/db/database";
import { getTurn } from "@/db/queries/turns";
import { listTurnEvents, TURN_EVENTS_CHANNEL } from "@/db/queries/traces";
import { isTerminalEvent } from "@/lib/engine/ports";
import { notFound } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import type { FollowedEvent } from "./follow-turn";

export const POLL_MS = 1_000;

/** The turn's events after `afterSeq`, as they are committed, ending with its terminal event (or when `signal` aborts). */
export async function* turnEventFeed(
  db: Db,
  turnId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<FollowedEvent> {
  if (!(await getTurn(db, turnId))) throw notFound(`turn '${turnId}'`);
  const waker = await turnWaker(db);
  let last = afterSeq;
  /** The turn was seen ended: one more read holds everything it will ever have. */
  let ended = false;
  while (!signal.aborted) {
    // Listen before reading: a commit between the read and the wait still wakes this follower.
    const woken = waker.next(turnId, signal);
    const rows = await listTurnEvents(db, { turnId, afterSeq: last });
    for (const row of rows) {
      last = row.seq;
      yield { ...row.data, seq: row.seq, type: row.type, at: row.at };
      if (isTerminalEvent(row.type)) return woken.cancel();
    }
    // Ended with no terminal event in its trace (recorded by an older build): nothing more will come.
    if (ended) return woken.cancel();
    if (rows.length === 0) {
      const turn = await getTurn(db, turnId);
      // It may have ended between the read above and this one (its terminal event commits with
      // its row): read once more before stopping.
      if (turn && turn.status !== "running" && turn.status !== "waiting") {
        ended = true;
        woken.cancel();
        continue;
      }
      await woken.promise;
    } else woken.cancel();
  }
}

interface Wake {
  promise: Promise<void>;
  cancel(): void;
}

/** One listener per database for every follower in this process, waking the followers of the notified turn. */
class TurnWaker {
  private readonly waiting = new Map<string, Set<() => void>>();

  hear(turnId: string): void {
    const set = this.waiting.get(turnId);
    if (!set) return;
    this.waiting.delete(turnId);
    for (const wake of set) wake();
  }

  /** Resolves at the next notification for the turn, after POLL_MS, or when `signal` aborts. */
  next(turnId: string, signal: AbortSignal): Wake {
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => (wake = resolve));
    const timer = setTimeout(() => done(), POLL_MS);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      this.waiting.get(turnId)?.delete(done);
      wake();
    };
    signal.addEventListener("abort", done, { once: true });
    let set = this.waiting.get(turnId);
    if (!set) this.waiting.set(turnId, (set = new Set()));
    set.add(done);
    return { promise, cancel: done };
  }
}

const wakers = new WeakMap<Db, Promise<TurnWaker>>();

function turnWaker(db: Db): Promise<TurnWaker> {
  let waker = wakers.get(db);
  if (!waker) {
    const made = new TurnWaker();
    waker = db
      .listen(TURN_EVENTS_CHANNEL, (turnId) => made.hear(turnId))
      .then(
        () => made,
        (error: unknown) => {
          // Not kept: the next follower tries again; until then this one polls.
          wakers.delete(db);
          log.warn("cannot listen for turn events; followers poll", describeError(error));
          return made;
        },
      );
    wakers.set(db, waker);
  }
  return waker;
}
