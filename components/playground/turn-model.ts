/** A playground turn as it streams: text and tool calls in the order they happened. */
export type TurnPart =
  | { type: "text"; text: string }
  | { type: "call"; call_id: string; tool: string; arguments: unknown; result?: { ok: boolean; error?: string; duration_ms?: number; halted?: boolean } }
  | { type: "approval"; approval_id: string; call_id?: string; tool: string; arguments: unknown; decided?: string };

export interface PlaygroundTurn {
  key: string;
  message: string;
  turnId?: string;
  status: "running" | "completed" | "halted" | "waiting" | "failed";
  parts: TurnPart[];
  content?: string;
  error?: string;
  warnings: string[];
}

/** Applies one engine event to the turn (pure; returns a new turn). */
export function applyEvent(turn: PlaygroundTurn, event: string, d: Record<string, unknown>): PlaygroundTurn {
  const parts = [...turn.parts];
  const last = parts[parts.length - 1];
  switch (event) {
    case "turn_started":
      return { ...turn, turnId: String(d.turn_id ?? "") };
    case "text_delta":
      if (last?.type === "text") parts[parts.length - 1] = { type: "text", text: last.text + String(d.text ?? "") };
      else parts.push({ type: "text", text: String(d.text ?? "") });
      return { ...turn, parts };
    case "tool_call":
      parts.push({ type: "call", call_id: String(d.call_id), tool: String(d.tool), arguments: d.arguments });
      return { ...turn, parts };
    case "tool_result":
      return {
        ...turn,
        parts: parts.map((p) =>
          p.type === "call" && p.call_id === d.call_id
            ? { ...p, result: { ok: d.ok === true, error: d.error as string | undefined, duration_ms: d.duration_ms as number | undefined, halted: d.halted === true } }
            : p,
        ),
      };
    case "approval_requested":
      parts.push({ type: "approval", approval_id: String(d.approval_id), call_id: d.call_id as string | undefined, tool: String(d.tool), arguments: d.arguments });
      return { ...turn, parts };
    case "warning":
      return { ...turn, warnings: [...turn.warnings, String(d.message ?? "")] };
    case "turn_completed":
    case "turn_halted":
      return { ...turn, status: event === "turn_completed" ? "completed" : "halted", content: String(d.content ?? "") };
    case "turn_waiting":
      return { ...turn, status: "waiting" };
    case "turn_failed":
      return { ...turn, status: "failed", error: String(d.error ?? "") };
    default:
      return turn;
  }
}
