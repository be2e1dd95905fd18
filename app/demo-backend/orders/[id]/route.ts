// GET /demo-backend/orders/:id — an order's status (demo mode only)
import { notFound } from "@/lib/errors";
import { json, route, refuseMethods } from "@/lib/api/route";
import { orderStatus } from "@/lib/demo/demo-backend";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(
  async (_req, { env, params }) => {
    if (!env.INSIKA_DEMO) throw notFound("demo backend");
    const order = orderStatus(params.id);
    if (!order) throw notFound(`order '${params.id.slice(0, 100)}'`);
    return json(order);
  },
  { scopes: "public" },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
