import type { TurnContext } from "@/lib/tools/types";
import type {
  CheckpointStore,
  Clock,
  EventSink,
  Model,
  ModelMessage,
  ModelToolSpec,
  ResumeState,
  TokenUsage,
  ToolExecutor,
  ToolGate,
} from "./ports";
import type { TurnFailureCode, TurnFault } from "./turn-failure";
import type { TurnLimits } from "./turn-limits";
import { TurnLoop } from "./turn-loop";

/** Everything one turn needs; the engine reads nothing else (no db, no network). */
export interface RunTurnInput {
  turnId: string;
  model: Model;
  /** Sent as a leading system message on every request of the turn (not recorded). */
  instructions?: string;
  /** Earlier turns' messages, sent before this turn's. */
  history: ModelMessage[];
  userMessage: string;
  /** What the policy offers this turn (already filtered). A call outside it is refused. */
  tools: ModelToolSpec[];
  executor: ToolExecutor;
  /** Set server-side, never from the model; handed to every call. */
  ctx: TurnContext;
  /** Absent fields take the reference defaults (1, 50, 300 s, 60 s). */
  limits?: Partial<TurnLimits>;
  sink: EventSink;
  clock?: Clock;
  /** Aborting it fails the turn with `turn cancelled` (code `cancelled`) and aborts running calls. */
  signal?: AbortSignal;
  /**
   * Whether the turn's text is read as it is produced (a client streaming the turn). false: each
   * model step may be answered whole (ModelRequest.streaming); the events are the same. Default true.
   */
  streaming?: boolean;
  /**
   * Approval seam (DESIGN D8): asked before each enveloped call; forces serial execution. With
   * tool_concurrency > 1, a fresh turn says so in a `warning` (naming `gate.tools`) after turn_started.
   */
  gate?: ToolGate;
  /** Resume seam (DESIGN D9): receives a checkpoint after every step, and the call journal. */
  checkpoints?: CheckpointStore;
  /**
   * Continue an interrupted or waiting turn from its checkpoint instead of starting one
   * (`userMessage` is then ignored; the checkpoint holds it). The turn announces itself with
   * `turn_resumed`; an open batch runs again with completed calls reused by identity and
   * side-effecting calls that were in flight reported as "outcome unknown", never re-sent.
   */
  resume?: ResumeState;
}

/** How a turn ended. `waiting` only happens when a gate says so. */
export type TurnStatus = "completed" | "halted" | "failed" | "waiting";

/** The turn's outcome, mirroring its one terminal event. */
export interface RunTurnResult {
  status: TurnStatus;
  /**
   * completed: the text of the last assistant message. halted: what was published (lead-in,
   * else say, else ""). failed and waiting: "" (nothing is an answer yet).
   */
  content: string;
  /** Set when status is failed; the same text as `turn_failed.error`. */
  error?: string;
  /** Set when status is failed: why, as `turn_failed.code` and `turn_failed.fault` say it. */
  code?: TurnFailureCode;
  fault?: TurnFault;
  /** The messages this turn appended, in recording order: the user message first. */
  messages: ModelMessage[];
  /** Summed over the turn's model steps; absent when no step reported usage. */
  usage?: TokenUsage;
}

/**
 * Runs one turn: `turn_started`, then model steps (text streamed as `text_delta`), each
 * step's tool calls run through runToolBatch and fed back as `tool` messages, until a step
 * makes no call (`turn_completed`), a call halts (`turn_halted`), a gate waits
 * (`turn_waiting`) or something fails (`turn_failed`). Exactly one terminal event, always
 * last; events reach the sink in emission order. Never rejects: every failure
 * (model error, limit, deadline, cancellation, sink or checkpoint failure) becomes a failed
 * result with its `code` and `fault` (turn-failure.ts). A failure of the turn wins over a
 * halt in the same batch. With `resume`, the turn starts with `turn_resumed` and continues
 * from its checkpoint (see RunTurnInput.resume). The run itself is a TurnLoop (turn-run.ts).
 */
export async function runTurn(input: RunTurnInput): Promise<RunTurnResult> {
  return new TurnLoop(input).run();
}
