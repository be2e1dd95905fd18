// GET /v1/skills — every skill (name, description; bodies via /v1/skills/:name)
import { json, route, refuseMethods } from "@/lib/api/route";
import { listSkillsPresented } from "@/lib/services/skills/skills";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db }) => json({ skills: await listSkillsPresented(db) }), {
  scopes: READ_CATALOG,
});

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
