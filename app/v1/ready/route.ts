// GET /v1/ready — readiness for a load balancer, without auth: 200 when the database answers and holds every migration, else 503
import { NextResponse } from "next/server";
import { route, refuseMethods } from "@/lib/api/route";
import { checkReadiness } from "@/lib/services/server/readiness";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(
  async (_req, { db }) => {
    const readiness = await checkReadiness(db);
    return NextResponse.json(readiness, {
      status: readiness.ready ? 200 : 503,
      headers: { "cache-control": "no-store" },
    });
  },
  { scopes: "public" },
);

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
