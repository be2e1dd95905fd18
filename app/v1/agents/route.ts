// GET /v1/agents — every agent
import { json, route } from "@/lib/api/route";
import { listAgentsPresented } from "@/lib/services/agents/agents";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route(async (_req, { db }) => json({ agents: listAgentsPresented(db) }));
