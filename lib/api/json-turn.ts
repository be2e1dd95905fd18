/**
 * POST /v1/sessions/:id/turns for a client that waits for one JSON answer: who may call it,
 * the body it takes, and the turn it runs. Shared by the route file (app/v1/sessions/[id]/
 * turns/route.ts) and the same route served on Node's own request (node-turn-route.ts), so
 * the two entries cannot drift apart.
 */
import { z } from "zod";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { startTurn } from "@/lib/services/turns/start-turn";
import { turnResultJson } from "./turn-result-json";

export const TURN_SCOPES: readonly Scope[] = ["turns:run"];

export const TURN_REQUEST = z.object({ message: z.string().max(200_000) }).strict();

/** Runs a turn and answers its result when it ends. */
export async function jsonTurn(db: Db, sessionId: string, message: string, actor: Principal) {
  // Nobody reads the text before the end: each model step may be one non-streaming provider call.
  const turn = await startTurn(db, { sessionId, message, actor, streaming: false });
  return turnResultJson(turn.turnId, await turn.done);
}
