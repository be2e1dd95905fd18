// GET /v1/agents — every agent
import { json, route, refuseMethods } from "@/lib/api/route";
import { listAgentsPresented } from "@/lib/services/agents/agents";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db }) => json({ agents: await listAgentsPresented(db) }), {
  scopes: READ_CATALOG,
});

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
