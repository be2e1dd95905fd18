// GET /v1/tools — the catalog: code and data tools, with dropped ones and their problem
import { json, route } from "@/lib/api/route";
import { listCatalog } from "@/lib/services/tools/tools";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db }) => json({ tools: listCatalog(db) }));
