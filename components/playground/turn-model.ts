/** A playground turn as it streams: text and tool calls in the order they happened. */
export type TurnPart =
  | { type: "text"; text: string }
  | {
      type: "call";
      call_id: string;
      tool: string;
      arguments: unknown;
      result?: { ok: boolean; error?: string; duration_ms?: number; halted?: boolean };
    }
  | {
      type: "approval";
      approval_id: string;
      call_id?: string;
      tool: string;
      arguments: unknown;
      decided?: "approved" | "rejected";
      expired?: boolean;
    };

export interface PlaygroundTurn {
  key: string;
  message: string;
  turnId?: string;
  status: "running" | "completed" | "halted" | "waiting" | "failed";
  parts: TurnPart[];
  content?: string;
  error?: string;
  /** Who was at fault when the turn failed (turn_failed.fault), shown in words. */
  fault?: string;
  warnings: string[];
  /** The last event seq seen: following a resumed turn starts after it. */
  lastSeq?: number;
}

export const TERMINAL_EVENTS = new Set(["turn_completed", "turn_halted", "turn_waiting", "turn_failed"]);

/** Applies one engine event to the turn (pure; returns a new turn). */
export function applyEvent(turn: PlaygroundTurn, event: string, d: Record<string, unknown>): PlaygroundTurn {
  const seen = typeof d.seq === "number" ? { ...turn, lastSeq: d.seq } : turn;
  return applyData(seen, event, d);
}

function applyData(turn: PlaygroundTurn, event: string, d: Record<string, unknown>): PlaygroundTurn {
  const parts = [...turn.parts];
  const last = parts[parts.length - 1];
  switch (event) {
    case "turn_started":
      return { ...turn, turnId: String(d.turn_id ?? "") };
    case "turn_resumed":
      return { ...turn, turnId: String(d.turn_id ?? turn.turnId ?? ""), status: "running" };
    case "text_delta":
      if (last?.type === "text") parts[parts.length - 1] = { type: "text", text: last.text + String(d.text ?? "") };
      else parts.push({ type: "text", text: String(d.text ?? "") });
      return { ...turn, parts };
    case "tool_call":
      // A resumed turn announces the calls of its open batch again (replayed): one chip per call.
      if (parts.some((p) => p.type === "call" && p.call_id === d.call_id)) return turn;
      parts.push({ type: "call", call_id: String(d.call_id), tool: String(d.tool), arguments: d.arguments });
      return { ...turn, parts };
    case "tool_result":
      return {
        ...turn,
        parts: parts.map((p) =>
          p.type === "call" && p.call_id === d.call_id
            ? {
                ...p,
                result: {
                  ok: d.ok === true,
                  error: d.error as string | undefined,
                  duration_ms: d.duration_ms as number | undefined,
                  halted: d.halted === true,
                },
              }
            : p,
        ),
      };
    case "approval_requested":
      parts.push({
        type: "approval",
        approval_id: String(d.approval_id),
        call_id: d.call_id as string | undefined,
        tool: String(d.tool),
        arguments: d.arguments,
      });
      return { ...turn, parts };
    case "approval_resolved":
      return {
        ...turn,
        parts: parts.map((p) =>
          p.type === "approval" && p.approval_id === d.approval_id
            ? {
                ...p,
                decided: d.decision === "approved" ? "approved" : "rejected",
                ...(d.expired === true ? { expired: true } : {}),
              }
            : p,
        ),
      };
    case "warning": {
      const message = String(d.message ?? "");
      return turn.warnings.includes(message) ? turn : { ...turn, warnings: [...turn.warnings, message] };
    }
    case "turn_completed":
    case "turn_halted":
      return { ...turn, status: event === "turn_completed" ? "completed" : "halted", content: String(d.content ?? "") };
    case "turn_waiting":
      return { ...turn, status: "waiting" };
    case "turn_failed":
      return {
        ...turn,
        status: "failed",
        error: String(d.error ?? ""),
        ...(typeof d.fault === "string" ? { fault: d.fault } : {}),
      };
    default:
      return turn;
  }
}
