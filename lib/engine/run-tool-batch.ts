import { askGate } from "./ask-gate";
import { callEvent, toolResultEvent } from "./call-events";
import { completedCall, reusedOutcome } from "./completed-call";
import { isSystemTool } from "./is-system-tool";
import type { Release } from "./limiter";
import type { ParsedArguments } from "./parse-tool-arguments";
import { planCall, startedCall, type PlannedCall } from "./planned-call";
import type { BatchContext, BatchResult } from "./batch-context";
import type {
  CheckpointStore,
  CompletedCall,
  HaltVerdict,
  ModelMessage,
  ModelToolCall,
  ModelToolSpec,
  ToolGate,
  ToolOutcome,
  TurnCheckpoint,
} from "./ports";
import { OUTCOME_UNKNOWN, type PriorCall } from "./resume-ledger";
import { errorOutcome, runToolCall, type CallEnd } from "./run-tool-call";
import { writeJournal } from "./journal-write";
import { errorMessage, TurnFailure } from "./turn-failure";
import { followSignal } from "./follow-signal";

export type { BatchContext, BatchResult } from "./batch-context";

/**
 * Runs the tool calls of one model step and returns one `tool` message per call, in
 * completion order. Serial mode runs them one at a time in call order;
 * otherwise all are dispatched at once and the turn's limiter keeps at most
 * tool_concurrency enveloped calls in flight. Rules (spec, "Parallel tool calls", halt_when):
 * - max_tool_calls is checked per call, as the model asks for it, and counts every call the
 *   model makes, system tools (spawn_subagent(s), tool_search, load_skill, remember)
 *   included: they take no concurrency slot and never ask the gate, but a model looping on
 *   them is still bounded by the turn's limit. Serially the tripping call
 *   ends the batch. In parallel it does not stop its siblings: each remaining call is checked
 *   on its own and the whole batch finishes; the turn fails afterwards.
 * - A halt (ok outcome with `halt`) lets running calls finish but starts no new one.
 * - The deadline aborts a serial call; in parallel it only stops dispatching and waits for
 *   in-flight calls (each bounded by tool_timeout). Cancellation aborts everything.
 * - Calls that never started get `{"error":"not run: <why>"}`, so every tool call of the
 *   assistant message has its result and the transcript stays valid for the next request.
 * - On resume (context.ledger), a call with a recorded result is given that result again
 *   without running (`replayed`), and a side-effecting call that was in flight gets
 *   OUTCOME_UNKNOWN (with the record the ledger holds for it, what it sent); neither asks
 *   the gate or counts against the limit a second time.
 * - With a journal, a call is journaled as started before the executor gets it and as
 *   completed before its tool_result; a journal failure stops the batch (the turn fails). For
 *   a call without side effects the batch does not wait for those two writes (`trailing`).
 * Rejects only on a bug (a call's processing threw); in parallel, once every running call settled.
 */
export async function runToolBatch(context: BatchContext, calls: ModelToolCall[]): Promise<BatchResult> {
  const run = new BatchRun(context, calls);
  try {
    return await run.execute();
  } finally {
    run.dispose();
  }
}

const NO_SLOT: Release = () => undefined;

class BatchRun {
  readonly #messages: ModelMessage[] = [];
  readonly #completed: CompletedCall[] = [];
  readonly #halts = new Map<number, HaltVerdict>();
  readonly #promoted: ModelToolSpec[] = [];
  readonly #settled = new Set<number>();
  /** The settle writes of calls without side effects, not waited for (BatchResult.trailing). */
  readonly #trailing: Promise<unknown>[] = [];
  #limitExceeded: TurnFailure | undefined;
  #journalFailure: TurnFailure | undefined;
  #waitingOn: TurnCheckpoint["waitingOn"];
  // Aborted by a halt, a serial limit trip, a wait, a call that threw, or the turn's own stops,
  // whichever comes first (its reason says which); the link to the turn's ends with dispose().
  readonly #stop = new AbortController();
  readonly #dispatch: AbortSignal = this.#stop.signal;
  readonly dispose: () => void;
  readonly #offered: ReadonlySet<string>;
  readonly #step: number;

  constructor(
    private readonly scope: BatchContext,
    private readonly calls: ModelToolCall[],
  ) {
    this.dispose = followSignal(this.#stop, scope.signals.stopped);
    this.#offered = scope.offered;
    this.#step = scope.step;
  }

  async execute(): Promise<BatchResult> {
    if (this.scope.serial) {
      for (const [position, call] of this.calls.entries()) {
        if (this.#dispatch.aborted) break;
        await this.#process(position, call);
      }
    } else await this.#processAll();
    if (!this.#waitingOn) this.#closeOut();
    const result: BatchResult = {
      messages: this.#messages,
      completed: this.#completed,
      halts: [...this.#halts.entries()].sort(([a], [b]) => a - b).map(([, halt]) => halt),
      promoted: this.#promoted,
      trailing: Promise.all(this.#trailing).then(() => this.#journalFailure),
    };
    const failure = this.#journalFailure ?? this.#limitExceeded;
    if (failure) result.failure = failure;
    if (this.#waitingOn) result.waitingOn = this.#waitingOn;
    return result;
  }

  /** Every call at once. One that throws (a bug) stops dispatch; the batch rejects once the rest settled. */
  async #processAll(): Promise<void> {
    const thrown: unknown[] = [];
    const stopOn = (error: unknown) => {
      thrown.push(error);
      this.#stop.abort(error);
    };
    await Promise.all(this.calls.map((call, position) => this.#process(position, call).catch(stopOn)));
    if (thrown.length > 0) throw thrown[0];
  }

  async #process(position: number, call: ModelToolCall): Promise<void> {
    const queuedAt = this.scope.clock.now();
    if (this.#dispatch.aborted) return;
    const { planned, parsed } = planCall(this.scope.turnId, this.#step, position, call);
    const { args } = planned;
    const enveloped = !isSystemTool(call.name);
    const prior = this.scope.ledger?.lookup(planned.identity, call.name);
    if (prior) return this.#replay(planned, prior);
    let refusal = this.#refusal(call, parsed);
    if (refusal === undefined && enveloped && this.scope.gate) {
      const verdict = await this.#askGate(this.scope.gate, planned);
      if (verdict === "wait") return;
      refusal = verdict;
    }
    if (refusal !== undefined) {
      await this.scope.events.record(callEvent(call, planned.args));
      return this.#settle(planned, { kind: "outcome", outcome: errorOutcome(refusal) }, 0, 0);
    }

    let release = NO_SLOT;
    if (enveloped) {
      try {
        release = await this.scope.limiter.acquire(this.#dispatch);
      } catch {
        return; // stopped while queued: closed out as "not run"
      }
    }
    // A slot can be granted in the same tick a sibling halts: check again, start nothing.
    if (this.#dispatch.aborted) {
      release();
      return;
    }
    let end: CallEnd, queuedMs: number, durationMs: number;
    try {
      queuedMs = this.scope.clock.now() - queuedAt;
      // Journaled and announced before executing: from here on the call may have side
      // effects, which is what resume needs to know (DESIGN D9). No journal, no call.
      const started = startedCall(planned, this.#step);
      if (this.scope.journal?.callStarted && !(await this.#journal("callStarted", started))) return;
      // Handed to the sink before the call runs (its persistence need not be waited for).
      this.scope.events.post(callEvent(call, args));
      const startedAt = this.scope.clock.now();
      end = await runToolCall({
        executor: this.scope.executor,
        request: { callId: call.id, tool: call.name, arguments: args, ctx: this.scope.ctx },
        timeoutS: this.scope.limits.tool_timeout,
        // Serially the deadline lands in the running call; in parallel only a cancellation
        // does, and the deadline waits for it.
        interrupt: this.scope.serial ? this.scope.signals.stopped : this.scope.signals.cancelled,
      });
      durationMs = this.scope.clock.now() - startedAt;
    } finally {
      release();
    }
    return this.#settle(planned, end, queuedMs, durationMs);
  }

  /** Why the call must not run (an error for the model), or undefined. Counts the call. */
  #refusal(call: ModelToolCall, parsed: ParsedArguments): string | undefined {
    // Counted before the other checks: a refused call is still a call the model made, and
    // counting it keeps a model stuck on a bad call from looping until the deadline.
    const overLimit = this.scope.budget.take();
    if (overLimit !== undefined) {
      const failure = new TurnFailure("tool_call_limit", overLimit);
      this.#limitExceeded ??= failure;
      if (this.scope.serial) this.#stop.abort(failure);
      return overLimit;
    }
    // A Set built from the offered list, never an object lookup (DESIGN §3.3).
    if (!this.#offered.has(call.name)) return `unknown tool: ${call.name}`;
    if (!parsed.ok) return parsed.error;
    return undefined;
  }

  /** Asks the approval gate: undefined = run, "wait" = stop here, else a refusal message. */
  async #askGate(gate: ToolGate, planned: PlannedCall): Promise<string | undefined> {
    const { call, position, identity } = planned;
    const request = { turnId: this.scope.turnId, ...startedCall(planned, this.#step) };
    const verdict = await askGate(gate, request, this.scope.events);
    if (verdict.action === "run") return undefined;
    if (verdict.action === "refuse") return verdict.error;
    this.#waitingOn = { step: this.#step, position, identity, callId: call.id, tool: call.name };
    this.#stop.abort(new Error("waiting for approval"));
    return "wait";
  }

  /** A call an earlier run of the turn already made: its result again, or "outcome unknown". */
  async #replay(planned: PlannedCall, prior: PriorCall): Promise<void> {
    this.scope.budget.take(); // counted when it was first asked for; keep the tally
    await this.scope.events.record(callEvent(planned.call, planned.args, true));
    if (prior.kind === "reuse")
      return this.#settle(planned, { kind: "outcome", outcome: reusedOutcome(prior.call) }, 0, 0, true);
    // Its trace record (what it sent, from the journal) is kept like any failed call's.
    const unknown = errorOutcome(OUTCOME_UNKNOWN);
    if (prior.record !== undefined) unknown.record = prior.record;
    return this.#settle(planned, { kind: "outcome", outcome: unknown }, 0, 0);
  }

  /** Writes one journal entry; false (and the batch stops, the turn fails) when it cannot. */
  async #journal<K extends "callStarted" | "callCompleted">(
    kind: K,
    entry: Parameters<NonNullable<CheckpointStore[K]>>[0],
  ): Promise<boolean> {
    const failure = await writeJournal(this.scope.journal, kind, entry);
    if (!failure) return true;
    this.#journalFailure ??= failure;
    this.#stop.abort(failure);
    return false;
  }

  /** Records a finished call: tool message now (completion order), then its journal entry and tool_result. */
  async #settle(
    planned: PlannedCall,
    end: CallEnd,
    queuedMs: number,
    durationMs: number,
    replayed = false,
  ): Promise<void> {
    const { call, position, identity } = planned;
    this.#settled.add(position);
    const outcome: ToolOutcome = end.kind === "outcome" ? end.outcome : errorOutcome(`aborted: ${end.reason}`);
    this.#messages.push({ role: "tool", callId: call.id, tool: call.name, content: outcome.content });
    // An interrupted call's outcome is unknown: it is not "completed", so resume will not
    // treat its placeholder result as what the tool did.
    const completed =
      end.kind === "outcome"
        ? completedCall({ identity, step: this.#step, position, callId: call.id, tool: call.name }, outcome)
        : undefined;
    if (completed) this.#completed.push(completed);
    // Before any await: a halt must stop dispatch in the same tick the halting call ends.
    const halted = outcome.ok && outcome.halt !== undefined;
    if (outcome.ok && outcome.halt) {
      this.#halts.set(position, outcome.halt);
      this.#stop.abort(new Error("the turn halted"));
    }
    if (outcome.ok && outcome.promote) this.#promoted.push(...outcome.promote);
    // The journal entry and the event do not depend on each other: written side by side.
    const journaled =
      completed && !replayed && this.scope.journal?.callCompleted
        ? this.#journal("callCompleted", completed)
        : undefined;
    const announced = this.scope.events.record(
      toolResultEvent(call, outcome, { durationMs, queuedMs }, { halted, replayed }),
    );
    // A call without side effects need not hold the batch for them: a crash that loses them
    // only makes a resume send it again. The turn waits for them with its next checkpoint.
    if (!replayed && this.scope.executor.sideEffect?.(call.name) === false) {
      this.#trailing.push(announced, ...(journaled ? [journaled] : []));
      return;
    }
    await journaled;
    await announced;
  }

  #closeOut(): void {
    const why = this.#dispatch.aborted ? errorMessage(this.#dispatch.reason) : "the turn ended";
    for (const [position, call] of this.calls.entries()) {
      if (this.#settled.has(position)) continue;
      const content = JSON.stringify({ error: `not run: ${why}` });
      this.#messages.push({ role: "tool", callId: call.id, tool: call.name, content });
    }
  }
}
