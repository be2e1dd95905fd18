/**
 * A page of a session's turns, as GET /v1/sessions/:id and /trace read them: the turns after
 * `after_seq` in seq order, at most `limit`. A long session is read a page at a time, so no
 * answer (and no read on the server's event loop) grows with everything a session holds.
 */
import { z } from "zod";
import { wholeNumberText } from "@/lib/services/whole-number-text";

export const DEFAULT_TURNS_PER_PAGE = 100;
export const MAX_TURNS_PER_PAGE = 1_000;

const pageFields = {
  after_seq: wholeNumberText(0, Number.MAX_SAFE_INTEGER).default(0),
  limit: wholeNumberText(1, MAX_TURNS_PER_PAGE).default(DEFAULT_TURNS_PER_PAGE),
};

/** The query of GET /v1/sessions/:id. */
export const transcriptQuery = z.object(pageFields).strict();

/** The query of GET /v1/sessions/:id/trace: a page, or one turn by id. */
export const traceQuery = z.object({ ...pageFields, turn_id: z.string().min(1).max(200).optional() }).strict();

export interface TurnPage {
  afterSeq: number;
  /** At most this many turns. */
  limit: number;
}

export function turnPage(query: { after_seq: number; limit: number }): TurnPage {
  return { afterSeq: query.after_seq, limit: query.limit };
}
