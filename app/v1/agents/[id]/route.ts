// GET, PUT, DELETE /v1/agents/:id — read, create or replace, remove an agent
import { json, readJson, route } from "@/lib/api/route";
import { getAgentOrThrow, presentAgent, putAgent, removeAgent } from "@/lib/services/agents/agents";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_req, { db, params }) => json(presentAgent(getAgentOrThrow(db, params.id))));

export const PUT = route<Params>(async (req, { db, params }) => {
  const { created, agent } = putAgent(db, params.id, await readJson(req));
  return json(agent, created ? 201 : 200);
});

// DELETE archives: the agent leaves every list, its history stays (docs/api.md, Agents).
export const DELETE = route<Params>(async (_req, { db, params }) => json(removeAgent(db, params.id)));
