// POST /studio-api/sessions/:id/turns — the Studio playground's turn stream (session cookie, not bearer): SSE
import type { NextRequest } from "next/server";
import { z } from "zod";
import { getDb } from "@/db/client";
import { errorResponse, json, readBody } from "@/lib/api/route";
import { isTerminalEvent, sseChannel } from "@/lib/api/sse";
import { hasStudioSession } from "@/lib/api/studio-auth";
import { errorBody } from "@/lib/api/errors";
import { getEnv } from "@/lib/env";
import { startTurn } from "@/lib/services/run-turn";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const body = z.object({ message: z.string().max(200_000) }).strict();

export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    if (!(await hasStudioSession())) return json(errorBody("unauthorized", "sign in to the Studio first"), 401);
    const { message } = await readBody(req, body);
    const { id } = await params;
    const channel = sseChannel();
    const turn = await startTurn(getDb(getEnv().dataDir), {
      sessionId: id,
      message,
      // `seq` stays in the data: after a wait, the playground follows the turn from there.
      listener: ({ type, ...data }) => {
        channel.send(type, data);
        if (isTerminalEvent(type)) channel.close();
      },
    });
    turn.done.catch(() => channel.close());
    return channel.response;
  } catch (error) {
    return errorResponse(error);
  }
}
