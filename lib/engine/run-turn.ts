import type { TurnContext } from "@/lib/tools/types";
import { haltContent } from "./halt-content";
import { Limiter } from "./limiter";
import { OrderedEmitter } from "./ordered-emitter";
import type {
  CheckpointStore,
  Clock,
  CompletedCall,
  EngineEvent,
  EventSink,
  Model,
  ModelMessage,
  ModelToolCall,
  ModelToolSpec,
  ResumeState,
  TokenUsage,
  ToolExecutor,
  ToolGate,
  TurnCheckpoint,
} from "./ports";
import { ResumeLedger } from "./resume-ledger";
import { restoreTurn } from "./restore-turn";
import { runToolBatch, type TurnToolScope } from "./run-tool-batch";
import { addUsage, streamModelStep, type ModelStep } from "./stream-model-step";
import { errorMessage, TurnFailure } from "./turn-failure";
import { resolveTurnLimits, type TurnLimits } from "./turn-limits";
import { TurnSignals } from "./turn-signals";
import { serialByApprovalsWarning } from "./serial-warning";

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
  /** Aborting it fails the turn with `turn cancelled` and aborts running calls. */
  signal?: AbortSignal;
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
  /** The messages this turn appended, in recording order: the user message first. */
  messages: ModelMessage[];
  /** Summed over the turn's model steps; absent when no step reported usage. */
  usage?: TokenUsage;
}

type TurnEnd =
  | { status: "completed" | "halted"; content: string }
  | { status: "waiting" }
  | { status: "failed"; error: string };

const systemClock: Clock = { now: () => Date.now() };

/**
 * Runs one turn: `turn_started`, then model steps (text streamed as `text_delta`), each
 * step's tool calls run through runToolBatch and fed back as `tool` messages, until a step
 * makes no call (`turn_completed`), a call halts (`turn_halted`), a gate waits
 * (`turn_waiting`) or something fails (`turn_failed`). Exactly one terminal event, always
 * last; events reach the sink one at a time in emission order. Never rejects: every failure
 * (model error, limit, deadline, cancellation, sink or checkpoint failure) becomes a failed
 * result. A failure of the turn wins over a halt in the same batch. With `resume`, the turn
 * starts with `turn_resumed` and continues from its checkpoint (see RunTurnInput.resume).
 */
export async function runTurn(input: RunTurnInput): Promise<RunTurnResult> {
  const emitter = new OrderedEmitter(input.sink);
  const messages: ModelMessage[] = [];
  const usage: { total?: TokenUsage } = {};
  const resumedAt = input.resume?.checkpoint.step;
  // The sink has it before anything else happens; its persistence need not be waited for.
  await emitter.handOff(
    resumedAt === undefined ? { type: "turn_started", turn_id: input.turnId } : { type: "turn_resumed", turn_id: input.turnId, step: resumedAt },
  );

  let end: TurnEnd;
  let signals: TurnSignals | undefined;
  try {
    const limits = readLimits(input.limits);
    signals = new TurnSignals({ turnTimeoutS: limits.turn_timeout, external: input.signal });
    end = await loop(input, limits, signals, emitter, messages, usage);
  } catch (error) {
    // A deadline or cancellation explains whatever error it caused downstream.
    end = { status: "failed", error: signals?.failure ?? describe(error) };
  } finally {
    signals?.dispose();
  }
  if (end.status !== "failed" && emitter.error) {
    end = { status: "failed", error: `event sink failed: ${emitter.error.message}` };
  }

  await emitter.emit(terminalEvent(end, usage.total));
  const result: RunTurnResult = {
    status: end.status,
    content: end.status === "completed" || end.status === "halted" ? end.content : "",
    messages,
  };
  if (end.status === "failed") result.error = end.error;
  if (usage.total) result.usage = usage.total;
  return result;
}

async function loop(
  input: RunTurnInput,
  limits: TurnLimits,
  signals: TurnSignals,
  emitter: OrderedEmitter,
  messages: ModelMessage[],
  usage: { total?: TokenUsage },
): Promise<TurnEnd> {
  const scope: TurnToolScope = {
    turnId: input.turnId,
    executor: input.executor,
    ctx: input.ctx,
    limits,
    limiter: new Limiter(limits.tool_concurrency),
    offered: new Map(input.tools.map((tool) => [tool.name, tool])),
    countedCalls: 0,
    emitter,
    clock: input.clock ?? systemClock,
    signals,
    serial: limits.tool_concurrency === 1 || input.gate !== undefined,
    messages,
  };
  if (input.gate) scope.gate = input.gate;
  if (input.checkpoints) scope.journal = input.checkpoints;
  // Once per turn: a resumed run (after each approval decision) goes serial for the same reason.
  if (input.gate && limits.tool_concurrency > 1 && !input.resume) {
    await emitter.emit({ type: "warning", message: serialByApprovalsWarning(input.gate.tools, limits.tool_concurrency) });
  }

  const prefix: ModelMessage[] = input.instructions ? [{ role: "system", content: input.instructions }] : [];
  prefix.push(...input.history);
  const completedCalls: CompletedCall[] = [];
  const promoted: ModelToolSpec[] = [];
  const promote = (tools: ModelToolSpec[]) => {
    // Offered from the next request on; an offered name keeps its spec.
    for (const tool of tools) {
      if (scope.offered.has(tool.name)) continue;
      scope.offered.set(tool.name, tool);
      promoted.push(tool);
    }
  };
  const save = async (kind: "save" | "saveOpenBatch", step: number, extra: Partial<TurnCheckpoint> = {}) => {
    const store = input.checkpoints;
    const write = store?.[kind];
    if (!store || !write) return;
    const snapshot: TurnCheckpoint = { turnId: input.turnId, step, messages: [...messages], completedCalls: [...completedCalls], ...extra };
    if (promoted.length > 0) snapshot.promoted = [...promoted];
    if (usage.total) snapshot.usage = { ...usage.total };
    try {
      await write.call(store, snapshot);
    } catch (error) {
      throw new TurnFailure(`checkpoint failed: ${errorMessage(error)}`);
    }
  };

  /** Runs one step's calls and settles what the batch means for the turn (undefined: go on). */
  const runBatch = async (step: number, leadIn: string, calls: ModelToolCall[]): Promise<TurnEnd | undefined> => {
    const batch = await runToolBatch(scope, step, calls);
    completedCalls.push(...batch.completed);
    promote(batch.promoted);
    const failure = signals.failure ?? batch.journalFailure ?? batch.limitExceeded;
    if (failure !== undefined) {
      await save("save", step).catch(() => undefined); // the failure is the news, not the save
      return { status: "failed", error: failure };
    }
    if (batch.waitingOn) {
      await save("save", step, { waitingOn: batch.waitingOn, batchOpen: true });
      return { status: "waiting" };
    }
    if (batch.halts.length > 0) {
      const content = haltContent(leadIn, batch.halts);
      await save("save", step, { end: { status: "halted", content } });
      return { status: "halted", content };
    }
    await save("save", step);
    return undefined;
  };

  let step = 0;
  if (input.resume) {
    const restored = restoreTurn(input.resume.checkpoint);
    messages.push(...restored.messages);
    if (restored.usage) usage.total = restored.usage;
    scope.countedCalls = restored.countedCalls;
    promote(restored.promoted);
    scope.ledger = new ResumeLedger(input.resume, (tool) => input.executor.sideEffect?.(tool) ?? true);
    if (restored.end) return restored.end;
    if (restored.openBatch) {
      const { step: open, leadIn, calls } = restored.openBatch;
      const end = await runBatch(open, leadIn, calls);
      if (end) return end;
    }
    step = restored.nextStep;
  } else {
    messages.push({ role: "user", content: input.userMessage });
  }

  for (; ; step += 1) {
    signals.throwIfStopped();
    if (emitter.error) throw new TurnFailure(`event sink failed: ${emitter.error.message}`);
    const modelStep = await askModel(input.model, [...prefix, ...messages], [...scope.offered.values()], signals, emitter);
    usage.total = addUsage(usage.total, modelStep.usage);
    const { text, toolCalls } = modelStep;
    messages.push(toolCalls.length > 0 ? { role: "assistant", content: text, toolCalls } : { role: "assistant", content: text });
    if (toolCalls.length === 0) {
      await save("save", step, { end: { status: "completed", content: text } });
      return { status: "completed", content: text };
    }
    // The step's calls are known before any runs: a resume replays this batch, not the model.
    await save("saveOpenBatch", step, { batchOpen: true });
    const end = await runBatch(step, text, toolCalls);
    if (end) return end;
  }
}

async function askModel(
  model: RunTurnInput["model"],
  requestMessages: ModelMessage[],
  tools: ModelToolSpec[],
  signals: TurnSignals,
  emitter: OrderedEmitter,
): Promise<ModelStep> {
  try {
    return await streamModelStep(model, { messages: requestMessages, tools, signal: signals.stopped }, emitter);
  } catch (error) {
    if (signals.stopped.aborted) throw signals.stopped.reason;
    throw new TurnFailure(`model error: ${errorMessage(error)}`);
  }
}

function readLimits(limits: Partial<TurnLimits> | undefined): TurnLimits {
  try {
    return resolveTurnLimits(limits);
  } catch (error) {
    throw new TurnFailure(errorMessage(error));
  }
}

function describe(error: unknown): string {
  return error instanceof TurnFailure ? error.message : `internal error: ${errorMessage(error)}`;
}

function terminalEvent(end: TurnEnd, usage: TokenUsage | undefined): EngineEvent {
  const withUsage = usage ? { usage } : {};
  switch (end.status) {
    case "completed":
      return { type: "turn_completed", content: end.content, ...withUsage };
    case "halted":
      return { type: "turn_halted", content: end.content, ...withUsage };
    case "waiting":
      return { type: "turn_waiting" };
    case "failed":
      return { type: "turn_failed", error: end.error };
  }
}
