// POST /demo-backend/subscribe — subscribes to a learning path and "confirms to the customer" (demo mode only)
import { z } from "zod";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { notFound } from "@/lib/errors";
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { subscribe } from "@/lib/demo/demo-backend";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const body = z.object({ path: z.string().max(200), email: z.string().max(320) });

export const POST = route(
  async (req, { env }) => {
    if (!env.INSIKA_DEMO) throw notFound("demo backend");
    const input = await readBody(req, body, BODY_LIMITS.demo);
    return json(subscribe(input.path, input.email));
  },
  { scopes: "public" },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
