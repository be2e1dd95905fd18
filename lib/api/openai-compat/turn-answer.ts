/**
 * A turn's engine events as an OpenAI-style client sees them: text as it streams, then one
 * ending. Tool calls and results stay inside Insika (they are in the trace, not in the
 * answer). Endings:
 * - completed: the last assistant message (already streamed);
 * - halted: exactly what the turn published: the lead-in (already streamed), else the `say`
 *   (streamed now, as it never was), else nothing;
 * - waiting: a status line the client can show, `[waiting for approval: <tool> (approval <id>)]`;
 * - failed: the turn's error (the formats turn it into an error response or event).
 */
import type { TokenUsage } from "@/lib/engine/ports";
import type { TurnFailureCode, TurnFault } from "@/lib/engine/turn-failure";
import { describeError, log } from "@/lib/log";
import type { EventListener } from "@/lib/services/turns/turn-recorder";

export type AnswerStatus = "completed" | "halted" | "waiting" | "failed";

export interface PendingApproval {
  approval_id: string;
  tool: string;
}

export interface TurnAnswer {
  status: AnswerStatus;
  /** The answer's text when not streamed: the turn's content, or the waiting line; "" when failed. */
  content: string;
  usage?: TokenUsage;
  error?: string;
  /** With `error`: why the turn failed (turn-failure.ts); the status of an error response depends on it. */
  code?: TurnFailureCode;
  fault?: TurnFault;
  /** Approvals still pending when the turn started waiting. */
  approvals: PendingApproval[];
}

/** Receives a turn as an answer; a streaming format writes it out as it comes. */
export interface AnswerSink {
  start(turnId: string): void;
  text(delta: string): void;
  end(answer: TurnAnswer): void;
}

/** The line a waiting turn ends with. */
export function waitingNote(approvals: readonly PendingApproval[]): string {
  if (approvals.length === 0) return "[waiting for approval]";
  return `[waiting for approval: ${approvals.map((a) => `${a.tool} (approval ${a.approval_id})`).join(", ")}]`;
}

/** Adapts engine events to a sink. Never throws: a broken sink must not fail the turn. */
export function answerListener(sink: AnswerSink): EventListener {
  let streamed = "";
  const pending = new Map<string, PendingApproval>();
  const say = (text: string) => {
    if (text === "") return;
    streamed += text;
    sink.text(text);
  };
  const handle: EventListener = (event) => {
    switch (event.type) {
      case "turn_started":
        return sink.start(event.turn_id);
      case "text_delta":
        return say(event.text);
      case "approval_requested":
        pending.set(event.approval_id, { approval_id: event.approval_id, tool: event.tool });
        return;
      case "approval_resolved":
        pending.delete(event.approval_id);
        return;
      case "turn_completed":
        return sink.end({ status: "completed", content: event.content, approvals: [], ...usageOf(event.usage) });
      case "turn_halted":
        // A lead-in is the last text streamed; a `say` never was.
        if (!streamed.endsWith(event.content)) say(event.content);
        return sink.end({ status: "halted", content: event.content, approvals: [], ...usageOf(event.usage) });
      case "turn_waiting": {
        const approvals = [...pending.values()];
        const note = waitingNote(approvals);
        say(streamed === "" || streamed.endsWith("\n") ? note : `\n\n${note}`);
        return sink.end({ status: "waiting", content: note, approvals });
      }
      case "turn_failed":
        return sink.end({
          status: "failed",
          content: "",
          error: event.error,
          code: event.code,
          fault: event.fault,
          approvals: [],
        });
      default:
        return;
    }
  };
  return (event) => {
    try {
      handle(event);
    } catch (error) {
      log.error("OpenAI-compatible stream writer failed", { event: event.type, ...describeError(error) });
    }
  };
}

export const usageOf = (usage: TokenUsage | undefined) => (usage ? { usage } : {});
