"use server";
// Server actions of the OpenAPI page: each checks the Studio session, then calls one service.
import { assertScope } from "@/lib/access/principal";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { processSecrets } from "@/lib/secrets/secret-source";
import { importOpenApi } from "@/lib/services/openapi/import-openapi";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { asResult, studioDb } from "../action-result";

/**
 * Imports (or re-imports) an OpenAPI document: the body POST /v1/openapi/import takes.
 * importOpenApi checks `body` before anything else (parseOpenApiImportBody: the route's rules, a 422 naming the problem).
 */
export async function importOpenApiAction(body: Record<string, unknown>) {
  const actor = await requireStudioSession();
  return asResult(() => {
    assertScope(actor, ["tools:write"], "importing an OpenAPI document");
    return importOpenApi(studioDb(), actor, body, { posture: getPosture(), secrets: processSecrets, source: "studio" });
  });
}
