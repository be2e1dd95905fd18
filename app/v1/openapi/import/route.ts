// POST /v1/openapi/import — adopt an OpenAPI document's operations as data tools of group openapi:<name>
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { json, readJson, route, refuseMethods } from "@/lib/api/route";
import { processSecrets } from "@/lib/secrets/secret-source";
import { importOpenApi } from "@/lib/services/openapi/import-openapi";
import { getPosture } from "@/lib/services/tools/egress-posture";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) =>
    json(
      await importOpenApi(db, principal, await readJson(req, BODY_LIMITS.openapi), {
        posture: getPosture(),
        secrets: processSecrets,
      }),
    ),
  { scopes: ["tools:write"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
