// GET /v1/sessions/:id — the transcript of a page of turns (?after_seq=, ?limit=): turns with status, their messages in order
import { json, parseWith, route, refuseMethods } from "@/lib/api/route";
import { queryObject } from "@/lib/api/query-params";
import { getTranscriptAs } from "@/lib/services/sessions/session-access";
import { turnPage, transcriptQuery } from "@/lib/services/sessions/turn-page";
import { READ_SESSIONS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    const query = parseWith(transcriptQuery, queryObject(req.nextUrl.searchParams));
    return json(await getTranscriptAs(db, principal, params.id, turnPage(query)));
  },
  { scopes: READ_SESSIONS },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
