// POST /v1/turns/:id/resume — resume an interrupted turn from its last checkpoint: SSE with Accept: text/event-stream, else JSON when it ends
import { json, route, refuseMethods } from "@/lib/api/route";
import { sseTurn } from "@/lib/api/sse-turn";
import { resumeTurnAs } from "@/lib/services/turns/start-turn";
import { turnResultJson } from "@/lib/api/turn-result-json";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    if (req.headers.get("accept")?.includes("text/event-stream"))
      return sseTurn(
        (listener) => resumeTurnAs(db, principal, params.id, listener),
        ({ type: _type, seq: _seq, at: _at, ...data }) => data,
      );
    const turn = await resumeTurnAs(db, principal, params.id);
    const result = await turn.done;
    return json(turnResultJson(turn.turnId, result));
  },
  { scopes: ["turns:run"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
