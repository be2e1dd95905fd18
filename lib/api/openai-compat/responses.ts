/**
 * POST /v1/responses: one Insika turn answered in OpenAI's Responses shape. `model` names the
 * agent; previous_response_id continues its session (a response id is `resp_<turn id>`), else
 * a new session is started. Only the new user input is run (see user-message.ts).
 */
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/access/principal";
import { answerTurn, streamTurn } from "./answer-turn";
import { responseId, messageItemId, unixSeconds } from "./ids";
import { turnFailedError } from "./openai-errors";
import { responsesUserMessage, type CreateResponseRequest } from "./responses-request";
import { messageItem, responseObject, responseStatus } from "./responses-shapes";
import { responseStreamSink } from "./responses-stream";
import { responsesSession } from "./resolve-session";
import { sseStream } from "@/lib/api/sse";

export async function createResponse(db: Db, actor: Principal, body: CreateResponseRequest): Promise<Response> {
  const message = responsesUserMessage(body);
  const previousResponseId = body.previous_response_id ?? null;
  const session = await responsesSession(db, actor, { agentId: body.model, previousResponseId });
  const headers = { "x-insika-session": session.id };
  const meta = { createdAt: unixSeconds(), model: body.model, previousResponseId };
  const metadata = (turnId: string, status: string) => ({
    ...body.metadata,
    insika_session_id: session.id,
    insika_turn_id: turnId,
    insika_status: status,
  });
  if (body.stream) {
    const sse = sseStream();
    const sink = responseStreamSink(sse, { meta, metadata });
    // Sequence numbers belong to the sink; this last-resort event carries none.
    const onLost = () =>
      sse.event("error", { type: "error", code: "server_error", message: "internal error", param: null });
    return streamTurn(db, { sessionId: session.id, message, actor, sse, sink, onLost, headers });
  }

  const { turnId, answer } = await answerTurn(db, { sessionId: session.id, message, actor });
  const turnHeaders = { ...headers, "x-insika-turn": turnId };
  if (answer.status === "failed") throw turnFailedError(answer, turnHeaders);
  const status = responseStatus(answer.status);
  const item = messageItem(messageItemId(turnId), answer.content, status === "completed" ? "completed" : "incomplete");
  const state = { status, output: [item], ...(answer.usage ? { usage: answer.usage } : {}) };
  const payload = responseObject({ ...meta, id: responseId(turnId), metadata: metadata(turnId, answer.status) }, state);
  return Response.json(payload, { headers: turnHeaders });
}
