// GET /v1/agents/:id/tools — exactly what this agent's turns are offered, deferred and denied, and the system tools they get
import { json, route, refuseMethods } from "@/lib/api/route";
import { agentSystemTools, agentToolExposure, getAgentOrThrow } from "@/lib/services/agents/agents";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(
  async (_req, { db, params }) => {
    const agent = await getAgentOrThrow(db, params.id);
    const { offered, deferred, denied } = await agentToolExposure(db, agent);
    return json({ offered, deferred, denied, system: agentSystemTools(agent, deferred.length > 0) });
  },
  { scopes: READ_CATALOG },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
