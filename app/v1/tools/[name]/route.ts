// GET, PUT, DELETE /v1/tools/:name — read, create or replace, remove one data tool
import { json, readJson, route, refuseMethods } from "@/lib/api/route";
import { getToolDetail, putTool, removeTool } from "@/lib/services/tools/tools";
import { listDialectProblems } from "@/lib/services/agents/dialect-problems";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = route<Params>(async (_req, { db, params }) => json(await getToolDetail(db, params.name)), {
  scopes: READ_CATALOG,
});

export const PUT = route<Params>(
  async (req, { db, params, principal }) => {
    const { created, tool } = await putTool(db, principal, params.name, await readJson(req));
    const problems = await listDialectProblems(db, { tool: params.name });
    return json({ ...tool, dialect_problems: problems.map(({ tool: _t, ...p }) => p) }, created ? 201 : 200);
  },
  { scopes: ["tools:write"] },
);

export const DELETE = route<Params>(
  async (_req, { db, params, principal }) => {
    await removeTool(db, principal, params.name);
    return json({ deleted: params.name });
  },
  { scopes: ["tools:write"] },
);

export const { POST, PATCH } = refuseMethods(["GET", "PUT", "DELETE"]);
