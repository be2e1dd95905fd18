/**
 * Following a turn that runs in the background (one resumed after an approval
 * was decided): its status and the events recorded after a given seq, as the
 * turn's SSE stream would have sent them. The Studio polls this.
 */
import { z } from "zod";
import type { Db } from "@/db/database";
import { getTurn } from "@/db/queries/turns";
import { listTurnEvents } from "@/db/queries/traces";
import { notFound } from "@/lib/errors";

/** Where a follow starts: an event seq, as GET /v1/turns/:id/events takes `after` (a non-negative integer, at most 15 digits). */
export const afterSeqInput = z.number().int().min(0).max(999_999_999_999_999);

export interface FollowedEvent {
  seq: number;
  type: string;
  at: number;
  [key: string]: unknown;
}

/** The turn's status and its events after `afterSeq` (at most 500 per call), in order; 404 for an unknown turn. */
export async function followTurn(
  db: Db,
  turnId: string,
  afterSeq: number,
): Promise<{ status: string; events: FollowedEvent[] }> {
  const turn = await getTurn(db, turnId);
  if (!turn) throw notFound(`turn '${turnId}'`);
  const events = (await listTurnEvents(db, { turnId, afterSeq })).map((e) => ({
    ...e.data,
    seq: e.seq,
    type: e.type,
    at: e.at,
  }));
  return { status: turn.status, events };
}
