// GET, PUT, DELETE /v1/skills/:name — read, create or replace ({description, body}), remove one skill
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { getSkillOrThrow, putSkill, removeSkill, skillInput } from "@/lib/services/skills/skills";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { name: string };

export const GET = route<Params>(async (_req, { db, params }) => json(await getSkillOrThrow(db, params.name)), {
  scopes: READ_CATALOG,
});

export const PUT = route<Params>(
  async (req, { db, params, principal }) => {
    const { created, skill } = await putSkill(db, principal, params.name, await readBody(req, skillInput));
    return json(skill, created ? 201 : 200);
  },
  { scopes: ["agents:write"] },
);

export const DELETE = route<Params>(
  async (_req, { db, params, principal }) => {
    await removeSkill(db, principal, params.name);
    return json({ deleted: params.name });
  },
  { scopes: ["agents:write"] },
);

export const { POST, PATCH } = refuseMethods(["GET", "PUT", "DELETE"]);
