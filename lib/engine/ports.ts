/**
 * The engine's ports: everything the turn loop needs from the outside world.
 * The engine depends on these interfaces only (no db/, no next/, no network),
 * so tests drive it with a scripted model and in-memory sinks.
 */
import type { JsonSchema, TurnContext } from "@/lib/tools/types";
import type { TurnFailureCode, TurnFault } from "./turn-failure";

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
  /**
   * Whether this step's text is read as it is produced (a client streaming the turn). false:
   * the model may answer the step whole, in one non-streaming provider call; it yields the
   * same parts (text-delta(s), tool-calls, finish). Default true.
   */
  streaming?: boolean;
}

/**
 * One model step: streams text deltas and tool calls, then a finish part.
 * Throws on transport/provider errors (the engine fails the turn with the message, code
 * `model_error`). An error whose cause is the model's configuration rather than the provider
 * says so in a `failureCode` property (MODEL_CONFIGURATION_CODES), which the turn then carries.
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
  /**
   * Whether a call of `tool` may change something outside the turn (data tools: `side_effect`).
   * Resume uses it (DESIGN D9): a side-effecting call that was in flight when the process died
   * is reported as "outcome unknown" instead of being sent again. Absent: every tool counts
   * as side-effecting, the safe reading.
   */
  sideEffect?(tool: string): boolean;
}

export interface Clock {
  now(): number;
}

export type EngineEvent =
  | { type: "turn_started"; turn_id: string }
  /** A turn picked up again from its last checkpoint (`step`: the step it held, -1 = none). */
  | { type: "turn_resumed"; turn_id: string; step: number }
  | { type: "text_delta"; text: string }
  /** `replayed`: a call of an earlier run of this turn, announced again on resume (not re-sent). */
  | { type: "tool_call"; call_id: string; tool: string; arguments: unknown; replayed?: true }
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
      /** The result an earlier run of this turn recorded, given again without calling the tool. */
      replayed?: true;
    }
  | { type: "approval_requested"; approval_id: string; call_id: string; tool: string; arguments: unknown }
  | {
      type: "approval_resolved";
      approval_id: string;
      call_id: string;
      decision: "approved" | "rejected";
      /** The approval timed out (a rejection nobody decided). */
      expired?: true;
    }
  | { type: "warning"; message: string }
  | { type: "turn_completed"; content: string; usage?: TokenUsage }
  | { type: "turn_halted"; content: string; usage?: TokenUsage }
  | { type: "turn_waiting" }
  /** `error` is the text shown; `code` and `fault` say why (turn-failure.ts). */
  | { type: "turn_failed"; error: string; code: TurnFailureCode; fault: TurnFault };

const TERMINAL_EVENTS: ReadonlySet<string> = new Set<EngineEvent["type"]>([
  "turn_completed",
  "turn_halted",
  "turn_waiting",
  "turn_failed",
]);

/** Whether an event type ends a run of a turn (exactly one does, always last). */
export const isTerminalEvent = (type: string): boolean => TERMINAL_EVENTS.has(type);

/**
 * Receives every event of a turn the moment it happens; persistence lives behind it.
 * `emit` is called once per event, in emission order, without waiting for the previous
 * event's promise: the sink keeps that order itself (it queues the event before returning).
 * The promise resolves once the event is durable; the engine waits for it only where it must
 * (a tool result, an approval, the end), so the sink may write a burst of events together.
 */
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
 * The approval behind a gate decision, so the engine can announce it in order with the call:
 * `requested` (just created) emits `approval_requested`; `approved`, `rejected` and `expired`
 * emit `approval_resolved`; `pending` (still undecided, already announced) emits nothing.
 */
export interface GateApproval {
  id: string;
  state: "requested" | "pending" | "approved" | "rejected" | "expired";
}

/**
 * `run`: go ahead. `refuse`: the model gets `{"error": error}` and the turn goes on.
 * `wait`: the turn stops here with `turn_waiting` (approval pending); a later resume picks it up.
 */
export type GateDecision =
  | { action: "run"; approval?: GateApproval }
  | { action: "refuse"; error: string; approval?: GateApproval }
  | { action: "wait"; approval?: GateApproval };

/**
 * Seam for approvals (DESIGN D8): asked before every enveloped call. A turn that has a gate
 * runs its calls serially, whatever tool_concurrency says (the spec: the approval gate wins).
 */
export interface ToolGate {
  /** The tools whose calls it asks about, named by the turn's warning that it goes serial. */
  readonly tools?: readonly string[];
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
  /** The error of a failed outcome. */
  error?: string;
  /** The halt verdict of an ok outcome: a reused call still halts the turn. */
  halt?: HaltVerdict;
  /** What an ok outcome promoted (tool_search): a reused call promotes again. */
  promote?: ModelToolSpec[];
}

/** A call about to be sent (journaled before the executor is called). */
export interface StartedCall {
  identity: string;
  step: number;
  position: number;
  callId: string;
  tool: string;
  /** The parsed arguments it is sent with (so the journal can say what was sent). */
  arguments: unknown;
}

/** The state needed to resume a turn, written after every step (DESIGN D9). */
export interface TurnCheckpoint {
  turnId: string;
  /** The step just finished, or (batchOpen) whose calls are running (0-based). */
  step: number;
  /** Every message this turn has appended so far (the user message first). */
  messages: ModelMessage[];
  /** Every call of this turn with a final result so far, in completion order. */
  completedCalls: CompletedCall[];
  /** Set when the turn stopped to wait for an approval of this call. */
  waitingOn?: { step: number; position: number; identity: string; callId: string; tool: string };
  /**
   * The last message is this step's assistant message and its calls have not all been
   * answered (mid-step, or waiting): a resume runs that batch again, reusing what completed,
   * instead of asking the model again. Trailing tool messages are partial and are rebuilt.
   */
  batchOpen?: boolean;
  /** Tools promoted so far this turn, offered again on resume. */
  promoted?: ModelToolSpec[];
  /** Token usage summed so far. */
  usage?: TokenUsage;
  /** Set on the last checkpoint of a turn that completed or halted: a resume only re-announces it. */
  end?: { status: "completed" | "halted"; content: string };
}

/**
 * Persists checkpoints; a failure to save fails the turn (resume would be unsafe). `save` is
 * called after every step, and once a step's calls are known, before any runs (`batchOpen`
 * set). The journal members make resume exact; a store without them gets the saves only.
 */
export interface CheckpointStore {
  save(checkpoint: TurnCheckpoint): void | Promise<void>;
  /** The call journal: awaited before a call is handed to the executor (never after). */
  callStarted?(call: StartedCall): void | Promise<void>;
  /** The call journal: awaited when a call's result is final, before its `tool_result`. */
  callCompleted?(call: CompletedCall): void | Promise<void>;
}

/**
 * What resuming a turn starts from (DESIGN D9): its last checkpoint and its call journal.
 * Calls are matched by identity, never by the provider's call id.
 */
export interface ResumeState {
  checkpoint: TurnCheckpoint;
  /** Calls with a final result, from the journal (reused without calling the tool again). */
  completed: CompletedCall[];
  /** Identities of calls that were started but have no result: their outcome is unknown. */
  inFlight: string[];
  /**
   * By identity: the call record to keep for an in-flight call reported "outcome unknown"
   * (what it sent, from the journal). Opaque to the engine; it rides on the tool_result.
   */
  unknownRecords?: ReadonlyMap<string, unknown>;
}
