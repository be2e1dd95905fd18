// GET /v1/sessions/:id — the transcript: messages in order, turns with status
import { json, route, refuseMethods } from "@/lib/api/route";
import { getTranscriptAs } from "@/lib/services/sessions/session-access";
import { READ_SESSIONS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(
  async (_req, { db, params, principal }) => json(await getTranscriptAs(db, principal, params.id)),
  { scopes: READ_SESSIONS },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
