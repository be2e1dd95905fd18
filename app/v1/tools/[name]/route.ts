// GET, PUT, DELETE /v1/tools/:name — read, create or replace, remove one data tool
import { json, readJson, route } from "@/lib/api/route";
import { getToolDetail, putTool, removeTool } from "@/lib/services/tools/tools";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = route<Params>(async (_req, { db, params }) => json(getToolDetail(db, params.name)));

export const PUT = route<Params>(async (req, { db, params }) => {
  const { created, tool } = putTool(db, params.name, await readJson(req));
  return json(tool, created ? 201 : 200);
});

export const DELETE = route<Params>(async (_req, { db, params }) => {
  removeTool(db, params.name);
  return json({ deleted: params.name });
});
