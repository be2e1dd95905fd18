// GET, PUT, DELETE /v1/skills/:name — read, create or replace ({description, body}), remove one skill
import { json, readBody, route } from "@/lib/api/route";
import { getSkillOrThrow, putSkill, removeSkill, skillInput } from "@/lib/services/skills/skills";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = route<Params>(async (_req, { db, params }) => json(getSkillOrThrow(db, params.name)));

export const PUT = route<Params>(async (req, { db, params }) => {
  const { created, skill } = putSkill(db, params.name, await readBody(req, skillInput));
  return json(skill, created ? 201 : 200);
});

export const DELETE = route<Params>(async (_req, { db, params }) => {
  removeSkill(db, params.name);
  return json({ deleted: params.name });
});
