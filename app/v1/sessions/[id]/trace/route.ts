// GET /v1/sessions/:id/trace — per turn, the ordered events and every tool call record
import { json, route, refuseMethods } from "@/lib/api/route";
import { getTraceAs } from "@/lib/services/sessions/session-access";
import { READ_SESSIONS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(
  async (req, { db, params, principal }) =>
    json(await getTraceAs(db, principal, params.id, { turnId: req.nextUrl.searchParams.get("turn_id") ?? undefined })),
  { scopes: READ_SESSIONS },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
