/**
 * The Chat Completions objects Insika answers with: `chat.completion` (not streamed) and
 * `chat.completion.chunk` (streamed). Beside OpenAI's fields, an `insika` object names the
 * session, the turn and how it ended (clients ignore unknown fields).
 */
import type { TokenUsage } from "@/lib/engine/ports";
import type { TurnAnswer } from "./turn-answer";

export interface ChatMeta {
  id: string;
  created: number;
  /** The agent id (the request's `model`). */
  model: string;
}

export interface InsikaInfo {
  session_id: string;
  turn_id: string;
  status: TurnAnswer["status"];
  approvals?: TurnAnswer["approvals"];
}

/** OpenAI's usage from the provider's, or undefined when the provider reported none. */
export function chatUsage(usage: TokenUsage | undefined) {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const prompt = usage.inputTokens ?? 0;
  const completion = usage.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function insikaInfo(sessionId: string, turnId: string, answer: TurnAnswer): InsikaInfo {
  const info: InsikaInfo = { session_id: sessionId, turn_id: turnId, status: answer.status };
  if (answer.approvals.length > 0) info.approvals = answer.approvals;
  return info;
}

/** The non-streamed answer. Every ending is finish_reason "stop"; `insika.status` tells them apart. */
export function chatCompletion(meta: ChatMeta, answer: TurnAnswer, insika: InsikaInfo) {
  const usage = chatUsage(answer.usage);
  return {
    id: meta.id,
    object: "chat.completion" as const,
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant" as const, content: answer.content, refusal: null },
        logprobs: null,
        finish_reason: "stop" as const,
      },
    ],
    ...(usage ? { usage } : {}),
    insika,
  };
}

type ChunkDelta = { role?: "assistant"; content?: string };

/** One streamed chunk; `choices` is empty only for the trailing usage chunk. */
export function chatChunk(
  meta: ChatMeta,
  delta: ChunkDelta | null,
  finishReason: "stop" | null = null,
  extra: Record<string, unknown> = {},
) {
  return {
    id: meta.id,
    object: "chat.completion.chunk" as const,
    created: meta.created,
    model: meta.model,
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  };
}
