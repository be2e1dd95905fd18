// GET /demo-backend/orders/:id — an order's status (demo mode only)
import { NextResponse } from "next/server";
import { getEnv } from "@/lib/env";
import { orderStatus } from "@/lib/demo/demo-backend";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!getEnv().INSIKA_DEMO) return NextResponse.json({ error: "not found" }, { status: 404 });
  const order = orderStatus((await params).id);
  return order ? NextResponse.json(order) : NextResponse.json({ error: "no such order" }, { status: 404 });
}
