/**
 * POST /v1/chat/completions: one Insika turn answered in OpenAI's Chat Completions shape.
 * `model` names the agent; the session comes from the X-Insika-Session header (or
 * metadata.session_id), else a new one is started; its id is in the X-Insika-Session
 * response header either way. Only the last user message is run (see user-message.ts).
 */
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/access/principal";
import { answerTurn, streamTurn } from "./answer-turn";
import { chatCompletion, insikaInfo } from "./chat-shapes";
import { chatStreamSink } from "./chat-stream";
import { chatUserMessage, type ChatCompletionRequest } from "./chat-request";
import { chatCompletionId, unixSeconds } from "./ids";
import { openAIErrorBody, turnFailedError } from "./openai-errors";
import { chatSession } from "./resolve-session";
import { sseStream } from "@/lib/api/sse";

export const SESSION_HEADER = "x-insika-session";

export async function createChatCompletion(
  db: Db,
  actor: Principal,
  body: ChatCompletionRequest,
  sessionHeader: string | null,
): Promise<Response> {
  const message = chatUserMessage(body);
  const sessionId = sessionHeader?.trim() || body.metadata?.session_id || null;
  const session = await chatSession(db, actor, { agentId: body.model, sessionId });
  const headers = { [SESSION_HEADER]: session.id };
  const created = unixSeconds();
  if (body.stream) {
    const sse = sseStream();
    const includeUsage = body.stream_options?.include_usage === true;
    const sink = chatStreamSink(sse, { sessionId: session.id, model: body.model, created, includeUsage });
    const onLost = () => sse.data(openAIErrorBody("server_error", "internal", "internal error"));
    return streamTurn(db, { sessionId: session.id, message, actor, sse, sink, onLost, headers });
  }
  const { turnId, answer } = await answerTurn(db, { sessionId: session.id, message, actor });
  const turnHeaders = { ...headers, "x-insika-turn": turnId };
  if (answer.status === "failed") throw turnFailedError(answer, turnHeaders);
  const meta = { id: chatCompletionId(turnId), created, model: body.model };
  return Response.json(chatCompletion(meta, answer, insikaInfo(session.id, turnId, answer)), { headers: turnHeaders });
}
