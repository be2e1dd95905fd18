// GET /v1/agents/:id/tools — exactly what this agent's turns are offered, deferred and denied
import { json, route } from "@/lib/api/route";
import { agentToolExposure, getAgentOrThrow } from "@/lib/services/agents";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_req, { db, params }) => {
  const { offered, deferred, denied } = agentToolExposure(db, getAgentOrThrow(db, params.id));
  return json({ offered, deferred, denied });
});
