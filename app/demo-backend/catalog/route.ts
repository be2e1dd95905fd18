// GET /demo-backend/catalog?q=&limit= — the demo store's catalog search (demo mode only)
import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { searchCatalog } from "@/lib/demo/demo-backend";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(req: NextRequest) {
  if (!getEnv().INSIKA_DEMO) return NextResponse.json({ error: "not found" }, { status: 404 });
  const q = req.nextUrl.searchParams.get("q") ?? "";
  const limit = Number(req.nextUrl.searchParams.get("limit") ?? 5) || 5;
  return NextResponse.json(searchCatalog(q, limit));
}
