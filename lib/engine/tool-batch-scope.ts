/**
 * The shapes around a batch of tool calls: what every batch of one turn shares (the
 * scope, created once per turn by runTurn) and how a batch ended.
 */
import type { TurnContext } from "@/lib/tools/types";
import type { Limiter } from "./limiter";
import type { OrderedEmitter } from "./ordered-emitter";
import type {
  CheckpointStore,
  Clock,
  CompletedCall,
  HaltVerdict,
  ModelMessage,
  ModelToolSpec,
  ToolExecutor,
  ToolGate,
  TurnCheckpoint,
} from "./ports";
import type { ResumeLedger } from "./resume-ledger";
import type { TurnLimits } from "./turn-limits";
import type { TurnSignals } from "./turn-signals";

/** What every batch of one turn shares (created once per turn by runTurn). */
export interface TurnToolScope {
  turnId: string;
  executor: ToolExecutor;
  ctx: TurnContext;
  limits: TurnLimits;
  /** The turn's limiter: every enveloped call of the turn, promoted tools included, uses it. */
  limiter: Limiter;
  /** Offered tools by name. A batch reads a snapshot; promotions are applied between steps. */
  offered: Map<string, ModelToolSpec>;
  /** Calls the model asked for so far this turn, system tools included (what max_tool_calls counts). */
  countedCalls: number;
  emitter: OrderedEmitter;
  clock: Clock;
  signals: TurnSignals;
  gate?: ToolGate;
  /** One call at a time in call order (tool_concurrency 1, or a gate is present). */
  serial: boolean;
  /** The turn's new messages; each tool result is appended the moment it completes. */
  messages: ModelMessage[];
  /** On resume: the calls of earlier runs (reused, or reported unknown). */
  ledger?: ResumeLedger;
  /** The call journal (callStarted / callCompleted), when the store keeps one. */
  journal?: CheckpointStore;
}

/** How a batch ended. A deadline or cancellation is not repeated here: read scope.signals. */
export interface BatchResult {
  /** Calls with a final result, in completion order. */
  completed: CompletedCall[];
  /** Halt verdicts of ok calls, in call order (the first one's `say` is the one published). */
  halts: HaltVerdict[];
  /** Tools that ok outcomes asked to promote, to offer from the next step on. */
  promoted: ModelToolSpec[];
  /** `tool call limit exceeded (N)` when a call tripped max_tool_calls. */
  limitExceeded?: string;
  /** `checkpoint failed: ...` when the call journal could not be written (the turn fails). */
  journalFailure?: string;
  /** Set when the gate said "wait": the batch stopped there, nothing was closed out. */
  waitingOn?: TurnCheckpoint["waitingOn"];
}
