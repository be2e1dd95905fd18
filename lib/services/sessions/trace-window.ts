/**
 * Which page of a session's turns the Studio's trace page shows: the page of the call or the
 * turn a link names, else the page `?after_seq=` asks for, else the latest. Pages are fixed
 * ranges of seq (1–100, 101–200, …), so a link to a turn always lands on the same page.
 */
import type { Db } from "@/db/database";
import { getSessionToolCall } from "@/db/queries/traces";
import { getLastTurnSeq, getSessionTurn } from "@/db/queries/turns";
import { DEFAULT_TURNS_PER_PAGE, type TurnPage } from "./turn-page";

export const TRACE_PAGE_TURNS = DEFAULT_TURNS_PER_PAGE;

export interface TraceWindow {
  page: TurnPage;
  /** The seq of the session's last turn (0: it has none). */
  lastSeq: number;
}

/** The after_seq of the page that holds `seq`. */
function pageStart(seq: number): number {
  return Math.floor((Math.max(seq, 1) - 1) / TRACE_PAGE_TURNS) * TRACE_PAGE_TURNS;
}

/** The page to show; a parameter that names nothing in the session (or is not a number) is ignored. */
export async function traceWindow(
  db: Db,
  sessionId: string,
  want: { afterSeq?: string; turn?: string; call?: string },
): Promise<TraceWindow> {
  const lastSeq = await getLastTurnSeq(db, sessionId);
  const at = (afterSeq: number): TraceWindow => ({ page: { afterSeq, limit: TRACE_PAGE_TURNS }, lastSeq });
  // A call the session does not have leaves the turn the link names, if any.
  const callTurn = want.call
    ? (await getSessionToolCall(db, { sessionId, callId: want.call, turnId: want.turn }))?.turnId
    : undefined;
  const turnId = callTurn ?? want.turn;
  const named = turnId ? await getSessionTurn(db, sessionId, turnId) : undefined;
  if (named) return at(pageStart(named.seq));
  if (want.afterSeq !== undefined && /^\d{1,15}$/.test(want.afterSeq)) return at(Number(want.afterSeq));
  return at(pageStart(lastSeq));
}
