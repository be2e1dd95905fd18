import type { EngineEvent, TokenUsage } from "./ports";
import type { FailureInfo } from "./turn-failure";

/** How one run of a turn ended: what its result and its one terminal event say. */
export type TurnEnd =
  | { status: "completed" | "halted"; content: string }
  | { status: "waiting" }
  | { status: "failed"; failure: FailureInfo };

/** The terminal event announcing `end` (with the turn's summed usage, where it has any). */
export function terminalEvent(end: TurnEnd, usage: TokenUsage | undefined): EngineEvent {
  const withUsage = usage ? { usage } : {};
  switch (end.status) {
    case "completed":
      return { type: "turn_completed", content: end.content, ...withUsage };
    case "halted":
      return { type: "turn_halted", content: end.content, ...withUsage };
    case "waiting":
      return { type: "turn_waiting" };
    case "failed":
      return { type: "turn_failed", ...end.failure };
  }
}
