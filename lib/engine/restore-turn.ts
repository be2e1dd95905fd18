import type { ModelMessage, ModelToolCall, ModelToolSpec, TokenUsage, TurnCheckpoint } from "./ports";
import { TurnFailure } from "./turn-failure";

/** Where a resumed turn picks up, read from its checkpoint. */
export interface RestoredTurn {
  /** The turn's messages to continue from (an open batch's partial tool results removed). */
  messages: ModelMessage[];
  /** The step whose batch must run again before the model is asked anything, if any. */
  openBatch?: { step: number; leadIn: string; calls: ModelToolCall[] };
  /** The first step the model is asked for. */
  nextStep: number;
  promoted: ModelToolSpec[];
  usage?: TokenUsage;
  /** Calls of the closed steps, system tools included (what max_tool_calls has counted so far). */
  countedCalls: number;
  /** The turn had already ended: nothing runs, the end is announced again. */
  end?: { status: "completed" | "halted"; content: string };
}

/**
 * Reads a checkpoint for resume. Throws a TurnFailure when it cannot be continued safely
 * (no user message, or an open batch without the assistant message that holds its calls).
 */
export function restoreTurn(checkpoint: TurnCheckpoint): RestoredTurn {
  const messages = [...checkpoint.messages];
  if (messages[0]?.role !== "user")
    throw new TurnFailure("resume_failed", "resume failed: the checkpoint has no user message");
  const restored: RestoredTurn = {
    messages,
    nextStep: checkpoint.step + 1,
    promoted: [...(checkpoint.promoted ?? [])],
    countedCalls: 0,
  };
  if (checkpoint.usage) restored.usage = { ...checkpoint.usage };
  if (checkpoint.end) restored.end = { ...checkpoint.end };

  if (checkpoint.batchOpen && !checkpoint.end) {
    const at = lastAssistantIndex(messages);
    const open = at >= 0 ? messages[at] : undefined;
    if (!open || open.role !== "assistant" || !open.toolCalls?.length) {
      throw new TurnFailure("resume_failed", "resume failed: the checkpoint's open batch has no tool calls");
    }
    messages.length = at + 1; // the batch runs again and rebuilds its tool messages
    restored.openBatch = { step: checkpoint.step, leadIn: open.content, calls: open.toolCalls };
  }
  for (const message of restored.openBatch ? messages.slice(0, -1) : messages) {
    if (message.role !== "assistant") continue;
    restored.countedCalls += message.toolCalls?.length ?? 0;
  }
  return restored;
}

function lastAssistantIndex(messages: ModelMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i -= 1) if (messages[i]?.role === "assistant") return i;
  return -1;
}
