/**
 * The Responses API objects Insika answers with. One assistant `message` item holds the
 * answer's text (tool calls stay inside Insika). How the turn ended:
 * completed and halted -> status "completed"; waiting for an approval -> status "incomplete"
 * with incomplete_details.reason "approval_pending"; failed -> status "failed" with `error`.
 * `metadata` echoes the request's and adds insika_session_id, insika_turn_id, insika_status.
 */
import type { TokenUsage } from "@/lib/engine/ports";
import type { AnswerStatus } from "./turn-answer";

export type ResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";
export type ItemStatus = "in_progress" | "completed" | "incomplete";

export interface ResponseMeta {
  id: string;
  createdAt: number;
  /** The agent id (the request's `model`). */
  model: string;
  previousResponseId: string | null;
  metadata: Record<string, string>;
}

export interface ResponseState {
  status: ResponseStatus;
  output: ReturnType<typeof messageItem>[];
  usage?: TokenUsage;
  error?: string;
}

/** The Response status for a turn's ending. */
export function responseStatus(status: AnswerStatus): ResponseStatus {
  if (status === "waiting") return "incomplete";
  return status === "failed" ? "failed" : "completed";
}

export const outputText = (text: string) => ({ type: "output_text" as const, text, annotations: [] as never[] });

export function messageItem(id: string, text: string | null, status: ItemStatus) {
  return {
    id,
    type: "message" as const,
    status,
    role: "assistant" as const,
    content: text === null ? [] : [outputText(text)],
  };
}

/** OpenAI's usage from the provider's, or null when the provider reported none. */
export function responsesUsage(usage: TokenUsage | undefined) {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return null;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  };
}

export function responseObject(meta: ResponseMeta, state: ResponseState) {
  const done = state.status !== "in_progress";
  return {
    id: meta.id,
    object: "response" as const,
    created_at: meta.createdAt,
    status: state.status,
    ...(done ? { completed_at: Math.floor(Date.now() / 1000) } : {}),
    error: state.status === "failed" ? { code: "server_error", message: state.error ?? "the turn failed" } : null,
    incomplete_details: state.status === "incomplete" ? { reason: "approval_pending" } : null,
    instructions: null,
    max_output_tokens: null,
    model: meta.model,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: meta.previousResponseId,
    store: true,
    temperature: null,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: [],
    top_p: null,
    truncation: "disabled",
    usage: responsesUsage(state.usage),
    metadata: meta.metadata,
  };
}
