// POST /v1/turns/:id/resume — resume an interrupted turn from its last checkpoint: SSE with Accept: text/event-stream, else JSON when it ends
import { json, route, refuseMethods } from "@/lib/api/route";
import { isTerminalEvent, sseChannel } from "@/lib/api/sse";
import { resumeTurnAs } from "@/lib/services/turns/start-turn";
import { turnResultJson } from "@/lib/api/turn-result-json";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    if (req.headers.get("accept")?.includes("text/event-stream")) {
      const channel = sseChannel();
      const turn = await resumeTurnAs(db, principal, params.id, ({ type, seq: _seq, at: _at, ...data }) => {
        channel.send(type, data);
        if (isTerminalEvent(type)) channel.close();
      });
      // A turn that had already ended streams nothing: close when it settles, whichever way.
      turn.done.finally(() => channel.close()).catch(() => undefined);
      return channel.response;
    }
    const turn = await resumeTurnAs(db, principal, params.id);
    const result = await turn.done;
    return json(turnResultJson(turn.turnId, result));
  },
  { scopes: ["turns:run"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
