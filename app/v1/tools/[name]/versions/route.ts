// GET /v1/tools/:name/versions — the tool's earlier versions, newest first
import { json, route, refuseMethods } from "@/lib/api/route";
import { listToolHistory } from "@/lib/services/tools/tools";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ name: string }>(
  async (_req, { db, params }) => json({ name: params.name, versions: await listToolHistory(db, params.name) }),
  { scopes: ["traces:read", "tools:write"] },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
