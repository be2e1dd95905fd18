// GET /v1/skills — every skill (name, description; bodies via /v1/skills/:name)
import { json, route } from "@/lib/api/route";
import { listSkillsPresented } from "@/lib/services/skills/skills";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db }) => json({ skills: listSkillsPresented(db) }));
