/**
 * What one batch of tool calls is given (BatchContext, built by the turn for each step) and
 * what it gives back (BatchResult). The batch changes nothing of the turn's: it returns its
 * messages, calls and promotions, and the turn applies them. The one thing it draws on is
 * the turn's CallBudget (max_tool_calls), which the turn owns and lends it.
 */
import type { TurnContext } from "@/lib/tools/types";
import type { CallBudget } from "./call-budget";
import type { EventLog } from "./event-log";
import type { Limiter } from "./limiter";
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
import type { TurnFailure } from "./turn-failure";
import type { TurnLimits } from "./turn-limits";
import type { TurnSignals } from "./turn-signals";

export interface BatchContext {
  turnId: string;
  step: number;
  executor: ToolExecutor;
  ctx: TurnContext;
  limits: TurnLimits;
  /** The turn's limiter: every enveloped call of the turn, promoted tools included, uses it. */
  limiter: Limiter;
  /** The tool names offered at this step (promotions of this batch count from the next one). */
  offered: ReadonlySet<string>;
  budget: CallBudget;
  events: EventLog;
  clock: Clock;
  signals: TurnSignals;
  /** One call at a time in call order (tool_concurrency 1, or a gate is present). */
  serial: boolean;
  gate?: ToolGate;
  /** On resume: the calls of earlier runs (reused, or reported unknown). */
  ledger?: ResumeLedger;
  /** The call journal (callStarted / callCompleted), when the store keeps one. */
  journal?: CheckpointStore;
}

/** How a batch ended. A deadline or cancellation is not repeated here: read the turn's signals. */
export interface BatchResult {
  /** One `tool` message per call, in completion order, then "not run" ones for calls that never ran (none when waiting). */
  messages: ModelMessage[];
  /** Calls with a final result, in completion order. */
  completed: CompletedCall[];
  /** Halt verdicts of ok calls, in call order (the first one's `say` is the one published). */
  halts: HaltVerdict[];
  /** Tools that ok outcomes asked to promote, to offer from the next step on. */
  promoted: ModelToolSpec[];
  /** The journal could not be written (`checkpoint_failed`), else a call tripped max_tool_calls (`tool_call_limit`). */
  failure?: TurnFailure;
  /** Set when the gate said "wait": the batch stopped there, nothing was closed out. */
  waitingOn?: TurnCheckpoint["waitingOn"];
  /**
   * The writes the batch did not wait for: the completion journal entry and tool_result of
   * each call without side effects (losing them in a crash only makes a resume run the call
   * again). Settles once they are durable, with the journal's failure if one failed (an event
   * failure is kept by the EventLog). Never rejects. The turn awaits it with its next
   * checkpoint, which the group commit then writes in the same transaction.
   */
  trailing: Promise<TurnFailure | undefined>;
}
