// POST /v1/sessions — start a session with an agent; GET /v1/sessions — recent sessions
import { z } from "zod";
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { createSession } from "@/lib/services/sessions/create-session";
import { listSessionsPresented } from "@/lib/services/sessions/sessions";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { READ_SESSIONS } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const body = z.object({ agent_id: z.string().min(1), tenant: z.string().min(1).max(200).nullish() }).strict();

export const POST = route(async (req, { db }) => {
  const input = await readBody(req, body, BODY_LIMITS.small);
  return json(createSession(db, { agentId: input.agent_id, tenant: input.tenant }), 201);
}, { scopes: ["turns:run"] });

export const GET = route(async (req, { db }) =>
  json({ sessions: listSessionsPresented(db, req.nextUrl.searchParams.get("agent_id") ?? undefined) }), { scopes: READ_SESSIONS }
);

export const { PUT, PATCH, DELETE } = refuseMethods(["GET", "POST"]);
