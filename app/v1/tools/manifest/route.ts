// POST /v1/tools/manifest — ingest a manifest: per-tool errors, structural errors fail the request
import { json, readJson, route, refuseMethods } from "@/lib/api/route";
import { manifestEnv } from "@/lib/env";
import { processSecrets } from "@/lib/secrets/secret-source";
import { applyManifest } from "@/lib/services/tools/apply-manifest";
import { getToolDetail, putTool, removeTool } from "@/lib/services/tools/tools";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { READ_CATALOG } from "@/lib/access/scopes";
import { dialectProblemsOfTools } from "@/lib/services/agents/dialect-problems";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route(
  async (req, { db, principal }) => {
    const result = await applyManifest(db, principal, await readJson(req, BODY_LIMITS.manifest), {
      env: manifestEnv(),
      secrets: processSecrets,
    });
    return json({
      ...result,
      dialect_problems: await dialectProblemsOfTools(db, [...result.created, ...result.updated]),
    });
  },
  { scopes: ["tools:write"] },
);

// This static segment shadows /v1/tools/:name for a tool named "manifest"; serve that tool here.
export const GET = route(async (_req, { db }) => json(await getToolDetail(db, "manifest")), { scopes: READ_CATALOG });
export const PUT = route(
  async (req, { db, principal }) => {
    const { created, tool } = await putTool(db, principal, "manifest", await readJson(req));
    const problems = await dialectProblemsOfTools(db, ["manifest"]);
    return json({ ...tool, dialect_problems: problems.map(({ tool: _t, ...p }) => p) }, created ? 201 : 200);
  },
  { scopes: ["tools:write"] },
);
export const DELETE = route(
  async (_req, { db, principal }) => {
    await removeTool(db, principal, "manifest");
    return json({ deleted: "manifest" });
  },
  { scopes: ["tools:write"] },
);

export const { PATCH } = refuseMethods(["GET", "POST", "PUT", "DELETE"]);
