// GET /metrics — Prometheus metrics of this process (text format), for a key with traces:read and no tenant
import { refuseMethods, route } from "@/lib/api/route";
import { metricsExposition } from "@/lib/services/observability/metrics-exposition";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(
  async (_req, { db, principal }) => {
    const { contentType, text } = await metricsExposition(db, principal);
    return new Response(text, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
  { scopes: ["traces:read"] },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
