// POST /v1/sessions/:id/turns — run a turn: SSE with Accept: text/event-stream, else JSON when it ends
import { z } from "zod";
import { json, readBody, route, refuseMethods } from "@/lib/api/route";
import { isTerminalEvent, sseChannel } from "@/lib/api/sse";
import { startTurn } from "@/lib/services/turns/start-turn";
import { BODY_LIMITS } from "@/lib/api/body-limits";
import { turnResultJson } from "@/lib/api/turn-result-json";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const body = z.object({ message: z.string().max(200_000) }).strict();

export const POST = route<{ id: string }>(
  async (req, { db, params, principal }) => {
    const { message } = await readBody(req, body, BODY_LIMITS.turn);
    if (req.headers.get("accept")?.includes("text/event-stream")) {
      const channel = sseChannel();
      const turn = await startTurn(db, {
        sessionId: params.id,
        message,
        actor: principal,
        streaming: true,
        listener: ({ type, seq: _seq, at: _at, ...data }) => {
          channel.send(type, data);
          if (isTerminalEvent(type)) channel.close();
        },
      });
      turn.done.catch(() => channel.close());
      return channel.response;
    }
    // Nobody reads the text before the end: each model step may be one non-streaming provider call.
    const turn = await startTurn(db, { sessionId: params.id, message, actor: principal, streaming: false });
    const result = await turn.done;
    return json(turnResultJson(turn.turnId, result));
  },
  { scopes: ["turns:run"] },
);

export const { GET, PUT, PATCH, DELETE } = refuseMethods(["POST"]);
