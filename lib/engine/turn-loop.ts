import { CallBudget } from "./call-budget";
import { EventLog } from "./event-log";
import { haltContent } from "./halt-content";
import { Limiter } from "./limiter";
import { OfferedTools } from "./offered-tools";
import type { CompletedCall, ModelMessage, ModelToolCall, TokenUsage, TurnCheckpoint } from "./ports";
import { restoreTurn } from "./restore-turn";
import { ResumeLedger } from "./resume-ledger";
import { runToolBatch, type BatchResult } from "./run-tool-batch";
import type { RunTurnInput, RunTurnResult } from "./run-turn";
import { serialByApprovalsWarning } from "./serial-warning";
import { addUsage, streamModelStep } from "./stream-model-step";
import {
  errorMessage,
  MODEL_CONFIGURATION_CODES,
  ownFailureCode,
  PERSISTENCE_CODES,
  TurnFailure,
} from "./turn-failure";
import { resolveTurnLimits, type TurnLimits } from "./turn-limits";
import { terminalEvent, type TurnEnd } from "./turn-end";
import { TurnSignals } from "./turn-signals";

/** What only exists once the limits are known to be valid (a bad limit fails the turn first). */
interface Running {
  limits: TurnLimits;
  signals: TurnSignals;
  limiter: Limiter;
  budget: CallBudget;
  serial: boolean;
  ledger?: ResumeLedger;
}

const systemClock = { now: () => Date.now() };

/**
 * One run of one turn (see runTurn): its state in named fields, and the turn read top to
 * bottom in `run` → `play` → `step` → `settleBatch`. The state has one owner each: the
 * messages, usage, completed calls and offered tools here; the max_tool_calls count in the
 * CallBudget; the concurrency in the Limiter. A batch is given what it needs and returns what
 * it changed, which `settleBatch` applies.
 */
export class TurnLoop {
  readonly #input: RunTurnInput;
  readonly #events: EventLog;
  readonly #clock: NonNullable<RunTurnInput["clock"]>;
  /** What this run appended to the turn, in recording order (the user message first). */
  readonly #messages: ModelMessage[] = [];
  readonly #completedCalls: CompletedCall[] = [];
  readonly #tools: OfferedTools;
  /** Sent before the turn's messages on every request: the instructions, then the history. */
  readonly #prefix: ModelMessage[];
  #usage: TokenUsage | undefined;

  constructor(input: RunTurnInput) {
    this.#input = input;
    this.#events = new EventLog(input.sink);
    this.#clock = input.clock ?? systemClock;
    this.#tools = new OfferedTools(input.tools);
    this.#prefix = [
      ...(input.instructions ? [{ role: "system" as const, content: input.instructions }] : []),
      ...input.history,
    ];
  }

  async run(): Promise<RunTurnResult> {
    const resumedAt = this.#input.resume?.checkpoint.step;
    const turnId = this.#input.turnId;
    this.#events.post(
      resumedAt === undefined
        ? { type: "turn_started", turn_id: turnId }
        : { type: "turn_resumed", turn_id: turnId, step: resumedAt },
    );

    let end: TurnEnd;
    let running: Running | undefined;
    try {
      running = this.#start();
      end = await this.#play(running);
    } catch (error) {
      // A deadline or cancellation explains whatever error it caused downstream.
      end = { status: "failed", failure: (running?.signals.failure ?? asTurnFailure(error)).info };
    } finally {
      running?.signals.dispose();
    }
    const sinkError = this.#events.error;
    if (end.status !== "failed" && sinkError) end = { status: "failed", failure: sinkFailure(sinkError).info };

    await this.#events.record(terminalEvent(end, this.#usage));
    return this.#result(end);
  }

  #start(): Running {
    let limits: TurnLimits;
    try {
      limits = resolveTurnLimits(this.#input.limits);
    } catch (error) {
      throw new TurnFailure("invalid_limits", errorMessage(error));
    }
    const { gate, resume, executor, signal } = this.#input;
    const running: Running = {
      limits,
      signals: new TurnSignals({
        turnTimeoutS: limits.turn_timeout,
        external: signal,
        toolConcurrency: limits.tool_concurrency,
      }),
      limiter: new Limiter(limits.tool_concurrency),
      budget: new CallBudget(limits.max_tool_calls),
      serial: limits.tool_concurrency === 1 || gate !== undefined,
    };
    if (resume) running.ledger = new ResumeLedger(resume, (tool) => executor.sideEffect?.(tool) ?? true);
    return running;
  }

  /** The turn from where it stands (fresh, or its checkpoint) to its end. */
  async #play(running: Running): Promise<TurnEnd> {
    const { gate, resume } = this.#input;
    // Once per turn: a resumed run (after each approval decision) goes serial for the same reason.
    if (gate && running.limits.tool_concurrency > 1 && !resume) {
      await this.#events.record({
        type: "warning",
        message: serialByApprovalsWarning(gate.tools, running.limits.tool_concurrency),
      });
    }
    let step = 0;
    if (resume) {
      const restored = restoreTurn(resume.checkpoint);
      this.#messages.push(...restored.messages);
      this.#usage = restored.usage;
      this.#tools.promote(restored.promoted);
      running.budget = new CallBudget(running.limits.max_tool_calls, restored.countedCalls);
      if (restored.end) return restored.end;
      if (restored.openBatch) {
        const { step: open, leadIn, calls } = restored.openBatch;
        const end = await this.#runBatch(running, open, leadIn, calls);
        if (end) return end;
      }
      step = restored.nextStep;
    } else {
      this.#messages.push({ role: "user", content: this.#input.userMessage });
    }
    for (; ; step += 1) {
      const end = await this.#step(running, step);
      if (end) return end;
    }
  }

  /** One model step and its calls; the turn's end, or undefined to ask the model again. */
  async #step(running: Running, step: number): Promise<TurnEnd | undefined> {
    running.signals.throwIfStopped();
    if (this.#events.error) throw sinkFailure(this.#events.error);
    const { text, toolCalls, usage } = await this.#askModel(running);
    this.#usage = addUsage(this.#usage, usage);
    this.#messages.push(
      toolCalls.length > 0 ? { role: "assistant", content: text, toolCalls } : { role: "assistant", content: text },
    );
    if (toolCalls.length === 0) {
      await this.#checkpoint(step, { end: { status: "completed", content: text } });
      return { status: "completed", content: text };
    }
    // The step's calls are known before any runs: a resume replays this batch, not the model.
    await this.#checkpoint(step, { batchOpen: true });
    return this.#runBatch(running, step, text, toolCalls);
  }

  async #askModel(running: Running) {
    const messages = [...this.#prefix, ...this.#messages];
    const signal = running.signals.stopped;
    const streaming = this.#input.streaming ?? true;
    try {
      const request = { messages, tools: this.#tools.specs(), signal, streaming };
      return await streamModelStep(this.#input.model, request, this.#events);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new TurnFailure(
        ownFailureCode(error, MODEL_CONFIGURATION_CODES) ?? "model_error",
        `model error: ${errorMessage(error)}`,
      );
    }
  }

  /** Runs one step's calls and settles what the batch means for the turn (undefined: go on). */
  async #runBatch(
    running: Running,
    step: number,
    leadIn: string,
    calls: ModelToolCall[],
  ): Promise<TurnEnd | undefined> {
    const { turnId, executor, ctx, gate, checkpoints } = this.#input;
    const batch = await runToolBatch(
      {
        turnId,
        step,
        executor,
        ctx,
        limits: running.limits,
        limiter: running.limiter,
        offered: this.#tools.names(),
        budget: running.budget,
        events: this.#events,
        clock: this.#clock,
        signals: running.signals,
        serial: running.serial,
        ...(gate ? { gate } : {}),
        ...(running.ledger ? { ledger: running.ledger } : {}),
        ...(checkpoints ? { journal: checkpoints } : {}),
      },
      calls,
    );
    this.#messages.push(...batch.messages);
    this.#completedCalls.push(...batch.completed);
    this.#tools.promote(batch.promoted);

    const failure = running.signals.failure ?? batch.failure;
    if (failure !== undefined) {
      // The failure is the news, not the save.
      await Promise.all([this.#checkpoint(step).catch(() => undefined), batch.trailing]);
      return { status: "failed", failure: failure.info };
    }
    if (batch.waitingOn) {
      await this.#checkpointAfter(batch, step, { waitingOn: batch.waitingOn, batchOpen: true });
      return { status: "waiting" };
    }
    if (batch.halts.length > 0) {
      const content = haltContent(leadIn, batch.halts);
      await this.#checkpointAfter(batch, step, { end: { status: "halted", content } });
      return { status: "halted", content };
    }
    await this.#checkpointAfter(batch, step);
    return undefined;
  }

  /** The checkpoint after a batch, written with the batch's trailing writes; either failing fails the turn. */
  async #checkpointAfter(batch: BatchResult, step: number, extra: Partial<TurnCheckpoint> = {}): Promise<void> {
    const [late] = await Promise.all([batch.trailing, this.#checkpoint(step, extra)]);
    if (late) throw late;
  }

  async #checkpoint(step: number, extra: Partial<TurnCheckpoint> = {}): Promise<void> {
    const store = this.#input.checkpoints;
    if (!store) return;
    const snapshot: TurnCheckpoint = {
      turnId: this.#input.turnId,
      step,
      messages: [...this.#messages],
      completedCalls: [...this.#completedCalls],
      ...extra,
    };
    if (this.#tools.promoted.length > 0) snapshot.promoted = [...this.#tools.promoted];
    if (this.#usage) snapshot.usage = { ...this.#usage };
    try {
      await store.save(snapshot);
    } catch (error) {
      throw new TurnFailure(
        ownFailureCode(error, PERSISTENCE_CODES) ?? "checkpoint_failed",
        `checkpoint failed: ${errorMessage(error)}`,
      );
    }
  }

  #result(end: TurnEnd): RunTurnResult {
    const result: RunTurnResult = {
      status: end.status,
      content: end.status === "completed" || end.status === "halted" ? end.content : "",
      messages: this.#messages,
    };
    if (end.status === "failed") Object.assign(result, end.failure);
    if (this.#usage) result.usage = this.#usage;
    return result;
  }
}

function asTurnFailure(error: unknown): TurnFailure {
  return error instanceof TurnFailure
    ? error
    : new TurnFailure("internal_error", `internal error: ${errorMessage(error)}`);
}

function sinkFailure(error: Error): TurnFailure {
  return new TurnFailure(
    ownFailureCode(error, PERSISTENCE_CODES) ?? "event_sink_failed",
    `event sink failed: ${error.message}`,
  );
}
