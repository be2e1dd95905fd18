// POST /v1/keys — create an API key (its value is shown once); GET /v1/keys — every key, never a value
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { createKey, createKeyBody, listKeys } from "@/lib/services/keys/api-keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) => json(await createKey(db, principal, await readBody(req, createKeyBody)), 201),
  {
    scopes: ["admin"],
  },
);

export const GET = route(async (_req, { db, principal }) => json({ keys: await listKeys(db, principal) }), {
  scopes: ["admin"],
});

export const { PUT, PATCH, DELETE } = refuseMethods(["GET", "POST"]);
