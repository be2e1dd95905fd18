/**
 * Running a turn in this process, fresh or resumed: the engine with persistence behind its
 * ports, the turn row kept in step with how the run ended, and the hand-offs around it
 * (a child turn for spawn_subagent). Resuming (which turn, from where) is resume-turn.ts.
 */
import type { Db } from "@/db/database";
import { insertSession } from "@/db/queries/sessions";
import { failTurnIfOwned } from "@/db/queries/leases";
import { insertTurn, SessionBusyError, turnStartOrder } from "@/db/queries/turns";
import type { AgentRow, SessionRow } from "@/db/schema";
import { DomainError, errorMessage } from "@/lib/errors";
import type { SubagentBudget } from "@/lib/code-tools/system/subagent-budget";
import type { ResumeState } from "@/lib/engine/ports";
import { runTurn, type RunTurnResult } from "@/lib/engine/run-turn";
import { describeError, log } from "@/lib/log";
import { failureInfo } from "@/lib/engine/turn-failure";
import { isConnectionError } from "@/db/database-errors";
import { markTurnActive, markTurnInactive, noteLeaseHeld, trackLeaseWrite } from "./active-turns";
import { getAgentOrThrow } from "@/lib/services/agents/agents";
import { newId } from "@/lib/services/new-id";
import { resumeIfDecided } from "./resume-turn";
import type { ChildRunner } from "./system-tools";
import { instanceId, newLease } from "./turn-leases";
import { TurnRecorder, type EventListener } from "./turn-recorder";
import { LeaseLostError } from "./lease-fence";
import { setupTurn } from "./setup-turn";
import { newSubagentBudget } from "./turn-subagent-budget";
import { groupCommit } from "./group-commit";
import { asRateLimited } from "@/lib/services/keys/rate-limit";
import { observeTurn } from "@/lib/observability/observe-turn";

export interface StartedTurn {
  turnId: string;
  recorder: TurnRecorder;
  /** Settles when the run ends or starts waiting. */
  done: Promise<RunTurnResult>;
}

export interface LaunchParams {
  turnId: string;
  session: SessionRow;
  agent: AgentRow;
  message: string;
  depth: number;
  resume?: ResumeState;
  listener?: EventListener;
  signal?: AbortSignal;
  /** Whether a client reads the turn's text as it is produced (RunTurnInput.streaming); default true. */
  streaming?: boolean;
  /** The turn row was just created (the recorder need not read back what it holds). */
  fresh?: boolean;
  /** The session's first turn: no earlier turn, so no history to read. */
  firstOfSession?: boolean;
  /** The child turns this turn and its descendants may still start (turn-subagent-budget.ts). */
  subagentBudget: SubagentBudget;
}

/**
 * Creates a turn row and runs it here; resolves once the row is committed. The row is
 * written in the group commit (group-commit.ts); with `exclusive`, the same write first
 * checks that the session has no running or waiting turn (409 otherwise), so no two
 * turns of a session can start, whichever processes start them.
 */
export async function startNewTurn(
  db: Db,
  params: {
    session: SessionRow;
    agent: AgentRow;
    message: string;
    depth: number;
    exclusive?: boolean;
    /** The key that starts the turn (recorded on the row); none for a subagent's turn. */
    keyId?: string;
    /** The key's turns-per-minute limit, checked in the insert's transaction (429). */
    rateLimit?: { max: number; windowMs: number };
    listener?: EventListener;
    signal?: AbortSignal;
    streaming?: boolean;
    /** For a child turn: the turn whose spawn_subagent(s) call starts it, and that turn's budget. */
    parent?: { turnId: string | null; budget: SubagentBudget };
  },
): Promise<StartedTurn> {
  const turnId = newId("turn");
  const lease = newLease();
  const runner = { instance: lease.instance, pid: lease.pid, leaseUntil: lease.now + lease.leaseMs };
  const values = {
    id: turnId,
    sessionId: params.session.id,
    userMessage: params.message,
    depth: params.depth,
    runner,
    exclusive: params.exclusive === true,
    keyId: params.keyId ?? null,
    parentTurnId: params.parent?.turnId ?? null,
    ...(params.rateLimit ? { rateLimit: params.rateLimit } : {}),
  };
  let seq: number;
  try {
    // The insert takes the turn's lease: a stop waits for it before it gives its leases up.
    const insert = groupCommit(db, (tx) => insertTurn(tx, values), { orderedWith: turnStartOrder(values) });
    seq = (await trackLeaseWrite(insert)).seq;
  } catch (error) {
    if (error instanceof SessionBusyError)
      throw new DomainError("conflict", "this session already has a turn in progress");
    throw asRateLimited(error);
  }
  markTurnActive(turnId);
  noteLeaseHeld(turnId, runner.leaseUntil);
  const subagentBudget = newSubagentBudget(params.agent, params.parent?.budget);
  return launchTurn(db, { ...params, turnId, fresh: true, firstOfSession: seq === 1, subagentBudget });
}

/**
 * Runs a turn whose row exists and is claimed by this process (fresh from startNewTurn, or
 * resumed from a checkpoint by resumeTurn): the engine with persistence behind its ports.
 * Returns at once; `done` settles when the run ends or starts waiting.
 */
export async function launchTurn(db: Db, params: LaunchParams): Promise<StartedTurn> {
  const { turnId, session, agent, subagentBudget } = params;
  let started: StartedTurn;
  try {
    const setup = await setupTurn(db, {
      turnId,
      session,
      agent,
      message: params.message,
      depth: params.depth,
      startStep: params.resume ? params.resume.checkpoint.step + 1 : 0,
      fresh: params.fresh === true,
      firstOfSession: params.firstOfSession === true,
      runChild: childRunner(db, { turnId, session, depth: params.depth, budget: subagentBudget }),
      subagentBudget,
    });
    const recorder = await TurnRecorder.open(db, turnId, session.id, {
      fresh: params.fresh === true,
      lease: { instance: newLease().instance },
      sideEffect: (tool) => setup.executor.sideEffect?.(tool) ?? true,
      describeCall: setup.describeCall,
      ...(setup.afterEvent ? { afterEvent: setup.afterEvent } : {}),
    });
    if (params.listener) recorder.listen(params.listener);
    const observed = observeTurn({
      turnId,
      sessionId: session.id,
      agent,
      model: setup.model,
      sink: recorder,
      isKnownTool: setup.isKnownTool,
    });
    const done = runTurn({
      turnId,
      model: observed.model,
      ...(setup.instructions ? { instructions: setup.instructions } : {}),
      history: setup.history,
      userMessage: params.message,
      tools: setup.tools,
      executor: setup.executor,
      ctx: setup.ctx,
      limits: setup.limits,
      sink: observed.sink,
      checkpoints: recorder,
      ...(setup.gate ? { gate: setup.gate } : {}),
      ...(params.signal ? { signal: params.signal } : {}),
      ...(params.streaming === false ? { streaming: false } : {}),
      ...(params.resume ? { resume: params.resume } : {}),
    })
      .then(async (result) => {
        await recorder.end(result);
        return result;
      })
      .catch((error: unknown) => recordingFailed(db, turnId, error));
    started = { turnId, recorder, done };
  } catch (error) {
    markTurnInactive(turnId);
    throw error;
  }
  void started.done.then((result) => {
    markTurnInactive(turnId);
    if (result.status === "waiting") void resumeIfDecided(db, turnId);
  });
  return started;
}

/**
 * The run could not be recorded (its end, or a write it needed): the caller is answered with
 * a failed result (fault `system`), never a rejection. What becomes of the turn row depends
 * on why. Taken over by another process: the turn is theirs now, writing "failed" would undo
 * it. The database unreachable: the row is left running, so once its lease runs out the
 * resume pass takes it up again when the database is back (a completed call is not sent
 * again, one in flight is reported unknown). Anything else: the row is closed as failed, so
 * it never stays running forever, unless another process has taken the turn over meanwhile.
 */
async function recordingFailed(db: Db, turnId: string, error: unknown): Promise<RunTurnResult> {
  if (error instanceof LeaseLostError) {
    log.warn("turn taken over by another process; this run stopped", { turn_id: turnId });
    return { status: "failed", content: "", messages: [], ...failureInfo("lease_lost", error.message) };
  }
  if (isConnectionError(error)) {
    log.warn("database unavailable: the turn is left running and resumes when it is back", {
      turn_id: turnId,
      ...describeError(error),
    });
    const message = `the database is unavailable (${errorMessage(error)}); the turn resumes from its last checkpoint when it is back`;
    return { status: "failed", content: "", messages: [], ...failureInfo("recording_failed", message) };
  }
  // No event can say why (recording is what failed): the code is recording_failed, in the log.
  log.error("turn persistence failed", { turn_id: turnId, ...describeError(error) });
  const failure = { id: turnId, instance: instanceId(), error: "internal error while recording the turn" };
  const closed = await failTurnIfOwned(db, failure).catch(() => undefined);
  if (closed === undefined) log.warn("turn left running: the database did not take its failure", { turn_id: turnId });
  else if (!closed) log.warn("turn not closed as failed: another process owns it now", { turn_id: turnId });
  return {
    status: "failed",
    content: "",
    messages: [],
    ...failureInfo("recording_failed", "internal error while recording the turn"),
  };
}

/**
 * spawn_subagent(s): a full turn of another agent in a new session (same tenant), one level
 * deeper, its row naming the parent turn (how a resume finds the budgets above it; null only
 * for an MCP offer that is listed, never called).
 */
export function childRunner(
  db: Db,
  parent: { turnId: string | null; session: SessionRow; depth: number; budget: SubagentBudget },
): ChildRunner {
  return async (agentId, message, signal) => {
    const agent = await getAgentOrThrow(db, agentId);
    const session = await insertSession(db, { id: newId("ses"), agentId, tenant: parent.session.tenant });
    // Not streamed: no client reads a child's text as it is produced (its parent gets the result).
    const child = await startNewTurn(db, {
      session,
      agent,
      message,
      depth: parent.depth + 1,
      signal,
      streaming: false,
      parent: { turnId: parent.turnId, budget: parent.budget },
    });
    const result = await child.done;
    return {
      agent: agentId,
      session_id: session.id,
      turn_id: child.turnId,
      status: result.status,
      content: result.content,
      ...(result.error ? { error: result.error } : {}),
    };
  };
}
