// GET /studio-api/sessions/:id/calls/:callId — one call's record for the trace page (session cookie, not bearer)
import type { NextRequest } from "next/server";
import { z } from "zod";
import { getDb } from "@/db/client";
import { errorBody } from "@/lib/api/errors";
import { errorResponse, json, parseWith } from "@/lib/api/route";
import { hasStudioSession } from "@/lib/api/studio-auth";
import { getEnv } from "@/lib/env";
import { getTraceCall } from "@/lib/services/sessions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const query = z.object({ turn: z.string().min(1).max(200).optional() });

export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string; callId: string }> }): Promise<Response> {
  try {
    if (!(await hasStudioSession())) return json(errorBody("unauthorized", "sign in to the Studio first"), 401);
    const { turn } = parseWith(query, { turn: req.nextUrl.searchParams.get("turn") ?? undefined });
    const { id, callId } = await params;
    // The record carries masked headers and the tool's result: never cache it.
    return json({ call: getTraceCall(getDb(getEnv().dataDir), id, callId, turn) }, 200, { "cache-control": "no-store" });
  } catch (error) {
    return errorResponse(error);
  }
}
