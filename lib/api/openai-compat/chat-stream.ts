/**
 * A turn streamed as Chat Completions chunks: a first chunk with the assistant role, one
 * chunk per text delta, a last chunk with finish_reason "stop" (and `insika`: session, turn,
 * status), a usage chunk with empty `choices` when stream_options.include_usage asked for it
 * (otherwise usage rides on the last chunk), then `data: [DONE]`. A failed turn sends one
 * `data: {"error":{...}}` (as OpenAI does mid-stream) and closes without [DONE].
 */
import { chatChunk, chatUsage, insikaInfo, type ChatMeta } from "./chat-shapes";
import { chatCompletionId } from "./ids";
import { openAIErrorBody } from "./openai-errors";
import type { SseStream } from "@/lib/api/sse";
import type { AnswerSink } from "./turn-answer";

export interface ChatStreamParams {
  sessionId: string;
  model: string;
  created: number;
  includeUsage: boolean;
}

/** Writes a turn's answer to `sse` as chunks. */
export function chatStreamSink(sse: SseStream, params: ChatStreamParams): AnswerSink {
  const meta: ChatMeta = { id: "", created: params.created, model: params.model };
  let turnId = "";
  const sink: AnswerSink = {
    start(id) {
      turnId = id;
      meta.id = chatCompletionId(id);
      sse.data(chatChunk(meta, { role: "assistant", content: "" }));
    },
    text(delta) {
      sse.data(chatChunk(meta, { content: delta }));
    },
    end(answer) {
      if (answer.status === "failed") {
        sse.data(openAIErrorBody("server_error", "turn_failed", answer.error ?? "the turn failed"));
        return sse.close();
      }
      const usage = chatUsage(answer.usage);
      const onLast = usage && !params.includeUsage ? { usage } : {};
      sse.data(chatChunk(meta, {}, "stop", { ...onLast, insika: insikaInfo(params.sessionId, turnId, answer) }));
      if (usage && params.includeUsage) sse.data(chatChunk(meta, null, null, { usage }));
      sse.data("[DONE]");
      sse.close();
    },
  };
  return sink;
}
