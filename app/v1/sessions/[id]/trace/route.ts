// GET /v1/sessions/:id/trace — per turn of a page (?after_seq=, ?limit=) or one turn (?turn_id=), the ordered events and every tool call record
import { json, parseWith, route, refuseMethods } from "@/lib/api/route";
import { queryObject } from "@/lib/api/query-params";
import { getTraceAs } from "@/lib/services/sessions/session-access";
import { turnPage, traceQuery } from "@/lib/services/sessions/turn-page";
import { READ_SESSIONS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    const query = parseWith(traceQuery, queryObject(req.nextUrl.searchParams));
    return json(await getTraceAs(db, principal, params.id, { turnId: query.turn_id, page: turnPage(query) }));
  },
  { scopes: READ_SESSIONS },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
