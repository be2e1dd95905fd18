// DELETE /v1/keys/:id — revoke a key (it stops working on the next request, in every process)
import { json, route, refuseMethods } from "@/lib/api/route";
import { revokeKey } from "@/lib/services/keys/api-keys";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const DELETE = route<{ id: string }>(
  async (_req, { db, params, principal }) => json(await revokeKey(db, principal, params.id)),
  {
    scopes: ["admin"],
  },
);

export const { GET, POST, PUT, PATCH } = refuseMethods(["DELETE"]);
