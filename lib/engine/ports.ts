/**
 * The engine's ports: everything the turn loop needs from the outside world.
 * The engine depends on these interfaces only (no db/, no next/, no network),
 * so tests drive it with a scripted model and in-memory sinks.
 */
import type { JsonSchema, TurnContext } from "@/lib/tools/types";

/** A tool as offered to the model. `parameters` reaches the provider verbatim. */
export interface ModelToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema | Record<string, unknown>;
}

/** A tool call as the model asked for it. `arguments` is the raw JSON text the provider gave. */
export interface ModelToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  | { role: "tool"; callId: string; tool: string; content: string };

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export type ModelStreamPart =
  | { type: "text-delta"; text: string }
  | { type: "tool-call"; call: ModelToolCall }
  | { type: "finish"; usage?: TokenUsage };

export interface ModelRequest {
  messages: ModelMessage[];
  tools: ModelToolSpec[];
  signal: AbortSignal;
}

/**
 * One model step: streams text deltas and tool calls, then a finish part.
 * Throws on transport/provider errors (the engine fails the turn with the message).
 */
export interface Model {
  readonly id: string;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}

/** Why a turn should end right after a tool result (spec: halt_when). */
export interface HaltVerdict {
  /** The `say` value to publish when the model wrote no lead-in; null = publish nothing. */
  say: string | null;
  /** Human-readable reason for the trace, e.g. `tool_result.status = "SUBSCRIBED"`. */
  reason: string;
}

/** What a tool call produced. A tool call never throws into the loop (DESIGN §3.3). */
export type ToolOutcome =
  | {
      ok: true;
      content: string;
      halt?: HaltVerdict;
      record?: unknown;
      /**
       * Tools to offer the model for the rest of this turn (tool_search promoting deferred
       * tools). They join the turn's offered list and share its concurrency limiter and cap.
       */
      promote?: ModelToolSpec[];
    }
  | { ok: false; content: string; error: string; record?: unknown };

export interface ToolCallRequest {
  callId: string;
  tool: string;
  /** Parsed model arguments (the engine parses the raw JSON text first). */
  arguments: unknown;
  ctx: TurnContext;
  signal: AbortSignal;
}

/** Runs tools by name; returns an `ok:false` outcome for unknown tools and bad arguments. */
export interface ToolExecutor {
  execute(request: ToolCallRequest): Promise<ToolOutcome>;
}

export interface Clock {
  now(): number;
}

export type EngineEvent =
  | { type: "turn_started"; turn_id: string }
  | { type: "text_delta"; text: string }
  | { type: "tool_call"; call_id: string; tool: string; arguments: unknown }
  | {
      type: "tool_result";
      call_id: string;
      tool: string;
      ok: boolean;
      result?: unknown;
      error?: string;
      duration_ms: number;
      queued_ms: number;
      halted?: boolean;
      record?: unknown;
    }
  | { type: "approval_requested"; approval_id: string; call_id: string; tool: string; arguments: unknown }
  | { type: "approval_resolved"; approval_id: string; call_id: string; decision: "approved" | "rejected" }
  | { type: "warning"; message: string }
  | { type: "turn_completed"; content: string; usage?: TokenUsage }
  | { type: "turn_halted"; content: string; usage?: TokenUsage }
  | { type: "turn_waiting" }
  | { type: "turn_failed"; error: string };

/** Receives every event as it happens; persistence lives behind it. */
export interface EventSink {
  emit(event: EngineEvent): void | Promise<void>;
}

/** One tool call of a turn, as the approval gate sees it (before it runs). */
export interface GateRequest {
  turnId: string;
  step: number;
  position: number;
  /** The resume identity (see call-identity.ts); approvals key on it, not on the provider id. */
  identity: string;
  callId: string;
  tool: string;
  arguments: unknown;
}

/**
 * `run`: go ahead. `refuse`: the model gets `{"error": error}` and the turn goes on.
 * `wait`: the turn stops here with `turn_waiting` (approval pending); a later resume picks it up.
 */
export type GateDecision = { action: "run" } | { action: "refuse"; error: string } | { action: "wait" };

/**
 * Seam for approvals (DESIGN D8): asked before every enveloped call. A turn that has a gate
 * runs its calls serially, whatever tool_concurrency says (the spec: the approval gate wins).
 */
export interface ToolGate {
  check(request: GateRequest): GateDecision | Promise<GateDecision>;
}

/** A call whose result is final and recorded: resume reuses it instead of calling again. */
export interface CompletedCall {
  identity: string;
  step: number;
  position: number;
  callId: string;
  tool: string;
  ok: boolean;
  /** Exactly what the model was given. */
  content: string;
}

/** The state needed to resume a turn, written after every step (DESIGN D9). */
export interface TurnCheckpoint {
  turnId: string;
  /** The step just finished (0-based). */
  step: number;
  /** Every message this turn has appended so far (the user message first). */
  messages: ModelMessage[];
  /** Every call of this turn with a final result so far, in completion order. */
  completedCalls: CompletedCall[];
  /** Set when the turn stopped to wait for an approval of this call. */
  waitingOn?: { step: number; position: number; identity: string; callId: string; tool: string };
}

/** Persists checkpoints; a failure to save fails the turn (resume would be unsafe). */
export interface CheckpointStore {
  save(checkpoint: TurnCheckpoint): void | Promise<void>;
}
