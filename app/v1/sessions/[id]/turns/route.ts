// POST /v1/sessions/:id/turns — run a turn: SSE with Accept: text/event-stream, else JSON when it ends.
// The JSON form is usually answered before Next routes it (lib/api/node-turn-route.ts); this
// file serves it under a bare `next start` and serves every SSE client.
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { jsonTurn, TURN_REQUEST, TURN_SCOPES } from "@/lib/api/json-turn";
import { sseTurn } from "@/lib/api/sse-turn";
import { startTurn } from "@/lib/services/turns/start-turn";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    const { message } = await readBody(req, TURN_REQUEST, BODY_LIMITS.turn);
    if (!req.headers.get("accept")?.includes("text/event-stream"))
      return json(await jsonTurn(db, params.id, message, principal));
    return sseTurn(
      (listener) => startTurn(db, { sessionId: params.id, message, actor: principal, streaming: true, listener }),
      ({ type: _type, seq: _seq, at: _at, ...data }) => data,
    );
  },
  { scopes: TURN_SCOPES },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
