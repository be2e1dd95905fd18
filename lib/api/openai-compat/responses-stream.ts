/**
 * A turn streamed as Responses API events, each with its `sequence_number`:
 * response.created, response.in_progress, then for the one message item
 * response.output_item.added, response.content_part.added, response.output_text.delta...,
 * response.output_text.done, response.content_part.done, response.output_item.done, and last
 * response.completed (completed or halted), response.incomplete (waiting for an approval) or
 * response.failed (the turn failed; its `response.error` says why). No [DONE]: the terminal
 * event ends the stream, as OpenAI's does.
 */
import { messageItemId, responseId } from "./ids";
import {
  messageItem,
  outputText,
  responseObject,
  responseStatus,
  type ItemStatus,
  type ResponseMeta,
  type ResponseState,
} from "./responses-shapes";
import type { SseStream } from "@/lib/api/sse";
import type { AnswerSink, TurnAnswer } from "./turn-answer";

export interface ResponseStreamParams {
  /** Without `id`: it is made from the turn id when the turn starts. */
  meta: Omit<ResponseMeta, "id" | "metadata">;
  /** The response's metadata for a turn and its status ("running", then how it ended). */
  metadata: (turnId: string, status: string) => Record<string, string>;
}

/** Writes a turn's answer to `sse` as typed events. */
export function responseStreamSink(sse: SseStream, params: ResponseStreamParams): AnswerSink {
  let seq = 0;
  let turnId = "";
  let text = "";
  let opened = false;
  let closedItem: ReturnType<typeof messageItem> | undefined;
  const emit = (type: string, fields: Record<string, unknown>) =>
    sse.event(type, { type, sequence_number: seq++, ...fields });
  const at = () => ({ item_id: messageItemId(turnId), output_index: 0, content_index: 0 });
  const response = (state: ResponseState, status: string) =>
    responseObject({ ...params.meta, id: responseId(turnId), metadata: params.metadata(turnId, status) }, state);

  const openItem = () => {
    if (opened) return;
    opened = true;
    emit("response.output_item.added", {
      output_index: 0,
      item: messageItem(messageItemId(turnId), null, "in_progress"),
    });
    emit("response.content_part.added", { ...at(), part: outputText("") });
  };
  const closeItem = (status: ItemStatus) => {
    openItem();
    emit("response.output_text.done", { ...at(), text, logprobs: [] });
    emit("response.content_part.done", { ...at(), part: outputText(text) });
    closedItem = messageItem(messageItemId(turnId), text, status);
    emit("response.output_item.done", { output_index: 0, item: closedItem });
  };
  const finish = (answer: TurnAnswer) => {
    const status = responseStatus(answer.status);
    if (status !== "failed") closeItem(status === "completed" ? "completed" : "incomplete");
    else if (opened) closeItem("incomplete");
    const state: ResponseState = {
      status,
      output: closedItem ? [closedItem] : [],
      ...(answer.usage ? { usage: answer.usage } : {}),
      ...(answer.error ? { error: answer.error } : {}),
    };
    emit(`response.${status}`, { response: response(state, answer.status) });
  };

  const sink: AnswerSink = {
    start(id) {
      turnId = id;
      const initial = response({ status: "in_progress", output: [] }, "running");
      emit("response.created", { response: initial });
      emit("response.in_progress", { response: initial });
    },
    text(delta) {
      openItem();
      text += delta;
      emit("response.output_text.delta", { ...at(), delta, logprobs: [] });
    },
    end(answer) {
      finish(answer);
      sse.close();
    },
  };
  return sink;
}
