// GET /studio-api/sessions/:id/calls/:callId — one call's record for the trace page (session cookie, not bearer)
import { queryObject } from "@/lib/api/query-params";
import { z } from "zod";
import { json, parseWith, refuseMethods } from "@/lib/api/route";
import { studioRoute } from "@/lib/api/studio-route";
import { getVisibleSessionOrThrow } from "@/lib/services/sessions/session-access";
import { READ_SESSIONS } from "@/lib/access/scopes";
import { getTraceCall } from "@/lib/services/sessions/sessions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const query = z.object({ turn: z.string().min(1).max(200).optional() });

export const GET = studioRoute<{ id: string; callId: string }>(
  async (req, { db, params, principal }) => {
    await getVisibleSessionOrThrow(db, principal, params.id);
    const { turn } = parseWith(query, queryObject(req.nextUrl.searchParams));
    // The record carries masked headers and the tool's result: never cache it.
    return json({ call: await getTraceCall(db, params.id, params.callId, turn) }, 200, { "cache-control": "no-store" });
  },
  { scopes: READ_SESSIONS },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
