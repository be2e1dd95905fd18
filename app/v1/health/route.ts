// GET /v1/health — liveness, without auth
import { json, route, refuseMethods } from "@/lib/api/route";
import { APP_VERSION } from "@/lib/version";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async () => json({ ok: true, version: APP_VERSION }), { scopes: "public" });

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
