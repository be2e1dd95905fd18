// GET /v1/doctor — the same checks as `insika doctor --json`
import { json, route, refuseMethods } from "@/lib/api/route";
import { runDoctor } from "@/lib/services/server/doctor";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db, env }) => json(await runDoctor(db, env)), { scopes: ["traces:read"] });

export const { POST, PUT, PATCH, DELETE } = refuseMethods(["GET"]);
