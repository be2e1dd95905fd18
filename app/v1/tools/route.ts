// GET /v1/tools — the catalog: code and data tools, with dropped ones and their problem, and provider dialect problems
import { json, route, refuseMethods } from "@/lib/api/route";
import { listCatalogWithDialectProblems } from "@/lib/services/tools/catalog-with-dialect-problems";
import { READ_CATALOG } from "@/lib/access/scopes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db }) => json({ tools: await listCatalogWithDialectProblems(db) }), {
  scopes: READ_CATALOG,
});

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
