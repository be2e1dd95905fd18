// POST /studio-api/sessions/:id/turns — the Studio playground's turn stream (session cookie, not bearer): SSE
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { TURN_REQUEST } from "@/lib/api/json-turn";
import { readBody, refuseMethods } from "@/lib/api/route";
import { sseTurn } from "@/lib/api/sse-turn";
import { studioRoute } from "@/lib/api/studio-route";
import { getVisibleSessionOrThrow } from "@/lib/services/sessions/session-access";
import { mayUseAgent } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";
import { startTurn } from "@/lib/services/turns/start-turn";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The signed-in key (principal): its agents, tenant and rate limit apply in the playground too.
export const POST = studioRoute<{ id: string }>(
  async (req, { db, params, principal }) => {
    const session = await getVisibleSessionOrThrow(db, principal, params.id);
    // A traces:read + turns:run key sees every session, but runs turns only for its own agents.
    if (!mayUseAgent(principal, session.agentId))
      throw new DomainError("forbidden", `this key may not use agent '${session.agentId}'`);
    const { message } = await readBody(req, TURN_REQUEST, BODY_LIMITS.turn);
    // `seq` stays in the data: after a wait, the playground follows the turn from there.
    return sseTurn(
      (listener) => startTurn(db, { sessionId: params.id, message, actor: principal, streaming: true, listener }),
      ({ type: _type, ...data }) => data,
    );
  },
  { scopes: ["turns:run"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
