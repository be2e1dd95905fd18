// GET, PUT, DELETE /v1/agents/:id — read, create or replace, remove an agent
import { json, readJson, route, refuseMethods } from "@/lib/api/route";
import { getAgentOrThrow, presentAgent, putAgent, removeAgent } from "@/lib/services/agents/agents";
import { listDialectProblems } from "@/lib/services/agents/dialect-problems";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(
  async (_req, { db, params }) => json(presentAgent(await getAgentOrThrow(db, params.id))),
  {
    scopes: READ_CATALOG,
  },
);

export const PUT = route<Params>(
  async (req, { db, params, principal }) => {
    const { created, agent } = await putAgent(db, principal, params.id, await readJson(req));
    const problems = await listDialectProblems(db, { agent: params.id });
    return json({ ...agent, dialect_problems: problems.map(({ agent: _a, ...p }) => p) }, created ? 201 : 200);
  },
  { scopes: ["agents:write"] },
);

// DELETE archives: the agent leaves every list, its history stays (docs/api.md, Agents).
export const DELETE = route<Params>(
  async (_req, { db, params, principal }) => json(await removeAgent(db, principal, params.id)),
  { scopes: ["agents:write"] },
);

export const { POST, PATCH } = refuseMethods(["GET", "PUT", "DELETE"]);
