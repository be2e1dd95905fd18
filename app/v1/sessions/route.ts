// POST /v1/sessions — start a session with an agent; GET /v1/sessions — recent sessions
import { queryObject } from "@/lib/api/query-params";
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { createSessionAs, createSessionBody, listSessionsAs } from "@/lib/services/sessions/session-access";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { READ_SESSIONS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) => {
    const input = await readBody(req, createSessionBody, BODY_LIMITS.small);
    return json(await createSessionAs(db, principal, { agentId: input.agent_id, tenant: input.tenant }), 201);
  },
  { scopes: ["turns:run"] },
);

export const GET = route(
  async (req, { db, principal }) =>
    json({ sessions: await listSessionsAs(db, principal, queryObject(req.nextUrl.searchParams).agent_id) }),
  { scopes: READ_SESSIONS },
);

export const { PUT, PATCH, DELETE } = refuseMethods(["GET", "POST"]);
