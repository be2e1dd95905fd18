// GET /demo-backend/catalog?q=&limit= — the demo store's catalog search (demo mode only)
import { notFound } from "@/lib/errors";
import { json, route, refuseMethods } from "@/lib/api/route";
import { searchCatalog } from "@/lib/demo/demo-backend";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(
  async (req, { env }) => {
    if (!env.INSIKA_DEMO) throw notFound("demo backend");
    const q = (req.nextUrl.searchParams.get("q") ?? "").slice(0, 200);
    const limit = Number(req.nextUrl.searchParams.get("limit") ?? 5) || 5;
    return json(searchCatalog(q, limit));
  },
  { scopes: "public" },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
