// POST /demo-backend/subscribe — subscribes to a learning path and "confirms to the customer" (demo mode only)
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { subscribe } from "@/lib/demo/demo-backend";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: NextRequest) {
  if (!getEnv().INSIKA_DEMO) return NextResponse.json({ error: "not found" }, { status: 404 });
  const body = (await req.json().catch(() => null)) as { path?: unknown; email?: unknown } | null;
  if (typeof body?.path !== "string" || typeof body.email !== "string") {
    return NextResponse.json({ error: "path and email are required" }, { status: 400 });
  }
  return NextResponse.json(subscribe(body.path, body.email));
}
