import { followTurnAction } from "@/app/(studio)/playground/actions";
import { TERMINAL_EVENTS } from "./turn-model";

/** Polling intervals: a turn waiting on a person is checked now and then; a turn that was just decided, often. */
const SLOW_MS = 2_000;
const FAST_MS = 300;
/** A decided turn that shows no progress for this long is left to its trace. */
const GIVE_UP_MS = 10 * 60_000;

export type ApplyEvent = (event: string, data: Record<string, unknown>) => void;

/**
 * Follows a turn that waits for an approval, or was resumed after one, by polling its
 * recorded events from `afterSeq` on (the decision resumes it in the background, so no
 * stream is open). Ends at a completed, halted or failed event; after another
 * `turn_waiting` it goes back to slow polling until the next decision. `nudge()`
 * switches to fast polling at once (called when this browser made the decision).
 */
export function followTurn(turnId: string, afterSeq: number, apply: ApplyEvent, onError: (message: string) => void) {
  let after = afterSeq;
  let fast = false;
  let stopped = false;
  let wake: (() => void) | undefined;
  let lastProgress = Date.now();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (!stopped) {
      const r = await followTurnAction(turnId, after).catch((e: Error) => ({
        ok: false as const,
        error: `connection lost: ${e.message}`,
      }));
      if (stopped) return;
      if (!r.ok) return onError(r.error);
      for (const e of r.value.events) {
        apply(e.type, e);
        after = e.seq;
        lastProgress = Date.now();
        if (e.type === "turn_waiting") fast = false;
        else if (TERMINAL_EVENTS.has(e.type)) return;
      }
      // The turn row ended but no terminal event was recorded (a crash, then a recovery): stop here.
      if (r.value.events.length === 0 && !["running", "waiting"].includes(r.value.status))
        return onError(`the turn ended (${r.value.status}); see its trace`);
      if (fast && Date.now() - lastProgress > GIVE_UP_MS) return onError("no progress for 10 minutes; see the trace");
      await sleep(fast ? FAST_MS : SLOW_MS);
    }
  };
  void loop();
  return {
    nudge() {
      fast = true;
      lastProgress = Date.now();
      wake?.();
    },
    stop() {
      stopped = true;
      wake?.();
    },
  };
}
