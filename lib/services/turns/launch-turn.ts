/**
 * Running a turn in this process, fresh or resumed: the engine with persistence behind its
 * ports, the turn row kept in step with how the run ended, and the hand-offs around it
 * (a child turn for spawn_subagent, a resume when a waiting turn's approval is decided).
 */
import type { Db } from "@/db/client";
import { getApprovalForCall } from "@/db/queries/approvals";
import { claimTurn, ensureCheckpoint, getCheckpoint, lastTurnEvent } from "@/db/queries/checkpoints";
import { endTurn, finishTurn, getSession, getTurn, insertSession, insertTurn, lastEventSeq, SessionBusyError } from "@/db/queries/sessions";
import { getAgentRecord } from "@/db/queries/agents";
import type { AgentRow, SessionRow, TurnRow } from "@/db/schema";
import { DEFAULT_LIMITS } from "@/lib/agents/agent-input";
import { DomainError, notFound } from "@/lib/errors";
import { SubagentBudget } from "@/lib/code-tools/system/subagent-budget";
import type { ResumeState } from "@/lib/engine/ports";
import { runTurn, type RunTurnResult } from "@/lib/engine/run-turn";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { isTurnActive, markTurnActive, markTurnInactive } from "./active-turns";
import { getAgentOrThrow } from "@/lib/services/agents/agents";
import { newId } from "@/lib/services/new-id";
import { loadResumeState } from "./load-resume-state";
import { crashHook, scriptedCrashPoint, type CrashPoint } from "./scripted-script";
import type { ChildRunner } from "./system-tools";
import { newLease } from "./turn-leases";
import { LeaseLostError, TurnRecorder, type EventListener } from "./turn-recorder";
import { setupTurn } from "./setup-turn";
import { groupCommit } from "./group-commit";
import { asRateLimited } from "@/lib/services/keys/rate-limit";

export interface StartedTurn {
  turnId: string;
  recorder: TurnRecorder;
  /** Settles when the run ends or starts waiting. */
  done: Promise<RunTurnResult>;
}

interface LaunchParams {
  turnId: string;
  session: SessionRow;
  agent: AgentRow;
  message: string;
  depth: number;
  resume?: ResumeState;
  listener?: EventListener;
  signal?: AbortSignal;
  crash?: CrashPoint;
  /** The turn row was just created (the recorder need not read back what it holds). */
  fresh?: boolean;
  /** For a child turn: the parent's subagent budget, which this turn's own is chained to. */
  parentBudget?: SubagentBudget;
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
    parentBudget?: SubagentBudget;
  },
): Promise<StartedTurn> {
  const turnId = newId("turn");
  const crash = params.agent.model.provider === "scripted" ? crashPointOf(params.agent, params.message) : undefined;
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
    ...(params.rateLimit ? { rateLimit: params.rateLimit } : {}),
  };
  try {
    await groupCommit(db, () => insertTurn(db, values));
  } catch (error) {
    if (error instanceof SessionBusyError) throw new DomainError("conflict", "this session already has a turn in progress");
    throw asRateLimited(error);
  }
  markTurnActive(turnId);
  return launch(db, { ...params, turnId, fresh: true, ...(crash ? { crash } : {}) });
}

/**
 * Resumes an interrupted (running, its lease expired) or waiting (its approval decided) turn
 * from its last checkpoint. Throws 404 for an unknown turn and 409 when the turn cannot be
 * resumed now: it runs (here, or in a process whose lease on it still holds), it ended, or
 * its approval is pending. A turn whose agent was deleted is not run again: it ends failed.
 */
export function resumeTurn(db: Db, turnId: string, options: { listener?: EventListener } = {}): StartedTurn {
  const turn = getTurn(db, turnId);
  if (!turn) throw notFound(`turn '${turnId}'`);
  if (isTurnActive(turnId)) throw new DomainError("conflict", "this turn is already running");
  if (turn.status !== "running" && turn.status !== "waiting") throw new DomainError("conflict", `this turn already ended (${turn.status})`);
  const session = getSession(db, turn.sessionId);
  if (!session) throw notFound(`session '${turn.sessionId}'`);
  const agent = getAgentRecord(db, session.agentId);
  if (!agent) throw notFound(`agent '${session.agentId}'`);

  if (turn.status === "waiting") {
    const pending = pendingApproval(db, turn.id);
    if (pending) throw new DomainError("conflict", `this turn is waiting for approval ${pending}`, { approval_id: pending });
    if (!claimTurn(db, { ...newLease(), turnId, from: "waiting" })) throw new DomainError("conflict", "this turn was resumed by someone else");
  } else {
    ensureCheckpoint(db, { turnId, userMessage: turn.userMessage });
    const lease = newLease();
    if (!claimTurn(db, { ...lease, turnId, from: "running" })) throw heldElsewhere(db, turnId, lease.now);
  }
  markTurnActive(turnId);
  const ended = turn.status === "running" ? alreadyEnded(db, turn) : undefined;
  if (ended) return ended;
  if (agent.archivedAt !== null) return endOfDeletedAgent(db, turn);
  const { resume, depth } = loadResumeState(db, turn);
  return launch(db, { turnId, session, agent, message: turn.userMessage, depth, resume, ...(options.listener ? { listener: options.listener } : {}) });
}

/** The 409 for a running turn whose lease another process holds (or someone just took). */
function heldElsewhere(db: Db, turnId: string, now: number): DomainError {
  const row = getCheckpoint(db, turnId);
  if (!row?.runnerInstance || row.leaseExpiresAt === null || row.leaseExpiresAt <= now) return new DomainError("conflict", "this turn was resumed by someone else");
  const seconds = Math.ceil((row.leaseExpiresAt - now) / 1000);
  return new DomainError("conflict", `this turn is running in another process (instance ${row.runnerInstance}, pid ${row.runnerPid ?? "?"}); its lease expires in ${seconds}s unless renewed`, {
    runner_instance: row.runnerInstance,
    lease_expires_at: new Date(row.leaseExpiresAt).toISOString(),
  });
}

/** A claimed turn of a deleted (archived) agent: recorded as failed, with its terminal event. */
function endOfDeletedAgent(db: Db, turn: TurnRow): StartedTurn {
  const error = "the agent of this turn was deleted; the turn was not resumed";
  const event = { turnId: turn.id, seq: lastEventSeq(db, turn.id) + 1, type: "turn_failed", data: { error }, at: Date.now() };
  try {
    endTurn(db, { event, messages: [], turn: { id: turn.id, status: "failed", error } });
  } finally {
    markTurnInactive(turn.id);
  }
  const result: RunTurnResult = { status: "failed", content: "", error, messages: [] };
  return { turnId: turn.id, recorder: new TurnRecorder(db, turn.id, turn.sessionId), done: Promise.resolve(result) };
}

/** Resumes a turn without anyone waiting on it; "cannot resume now" is not an error here. */
export function resumeInBackground(db: Db, turnId: string): void {
  try {
    resumeTurn(db, turnId).done.catch(() => undefined);
  } catch (error) {
    if (error instanceof DomainError && error.code === "conflict") log.debug("resume skipped", { turn_id: turnId, reason: error.message });
    else log.error("resume failed", { turn_id: turnId, ...describeError(error) });
  }
}

/** The pending (and not yet expired) approval a waiting turn waits on, if any. */
export function pendingApproval(db: Db, turnId: string): string | undefined {
  const waitingOn = getCheckpoint(db, turnId)?.state.waitingOn;
  if (!waitingOn) return undefined;
  const approval = getApprovalForCall(db, { turnId, identity: waitingOn.identity });
  return approval?.status === "pending" && approval.expiresAt > Date.now() ? approval.id : undefined;
}

function launch(db: Db, params: LaunchParams): StartedTurn {
  const { turnId, session, agent } = params;
  let started: StartedTurn;
  try {
    // Not persisted: a resumed turn starts a fresh count (its completed spawn calls are reused, not re-run).
    const subagentBudget = new SubagentBudget(agent.limits.max_subagent_turns ?? DEFAULT_LIMITS.max_subagent_turns, params.parentBudget);
    const setup = setupTurn(db, {
      turnId,
      session,
      agent,
      message: params.message,
      depth: params.depth,
      startStep: params.resume ? params.resume.checkpoint.step + 1 : 0,
      runChild: childRunner(db, session, params.depth, subagentBudget),
      subagentBudget,
    });
    const recorder = new TurnRecorder(db, turnId, session.id, {
      fresh: params.fresh === true,
      lease: { instance: newLease().instance },
      sideEffect: (tool) => setup.executor.sideEffect?.(tool) ?? true,
      describeCall: setup.describeCall,
      ...(params.crash ? { afterEvent: crashHook(params.crash) } : {}),
    });
    if (params.listener) recorder.listen(params.listener);
    const done = runTurn({
      turnId,
      model: setup.model,
      ...(setup.instructions ? { instructions: setup.instructions } : {}),
      history: setup.history,
      userMessage: params.message,
      tools: setup.tools,
      executor: setup.executor,
      ctx: setup.ctx,
      limits: setup.limits,
      sink: recorder,
      checkpoints: recorder,
      ...(setup.gate ? { gate: setup.gate } : {}),
      ...(params.signal ? { signal: params.signal } : {}),
      ...(params.resume ? { resume: params.resume } : {}),
    }).then(async (result) => {
      await recorder.end(result);
      return result;
    });
    started = { turnId, recorder, done };
  } catch (error) {
    markTurnInactive(turnId);
    throw error;
  }
  started.done.then(
    (result) => {
      markTurnInactive(turnId);
      if (result.status === "waiting") afterRun(db, turnId);
    },
    (error: unknown) => {
      markTurnInactive(turnId);
      // Taken over by another process: the turn is theirs now; writing "failed" would undo it.
      if (error instanceof LeaseLostError) return log.warn("turn taken over by another process; this run stopped", { turn_id: turnId });
      // Persistence itself failed: say so in the log and leave the turn failed, never running forever.
      log.error("turn persistence failed", { turn_id: turnId, ...describeError(error) });
      try {
        finishTurn(db, { id: turnId, status: "failed", error: "internal error while recording the turn" });
      } catch {
        // the database is gone; the log line above is all we can do
      }
    },
  );
  return started;
}

/** A turn that stopped to wait may already have its decision (decided during the run): go on. */
function afterRun(db: Db, turnId: string): void {
  try {
    if (getTurn(db, turnId)?.status === "waiting" && !pendingApproval(db, turnId)) resumeInBackground(db, turnId);
  } catch (error) {
    log.error("post-turn check failed", { turn_id: turnId, ...describeError(error) });
  }
}

/**
 * The turn's terminal event was written but not its turn row: record the end that was
 * already announced instead of running anything again. The recorder now commits both
 * together (TurnRecorder.end); this still closes turns recorded before it did.
 */
function alreadyEnded(db: Db, turn: TurnRow): StartedTurn | undefined {
  const last = lastTurnEvent(db, turn.id);
  const data = (last?.data ?? {}) as { content?: string; error?: string; usage?: RunTurnResult["usage"] };
  let result: RunTurnResult | undefined;
  if (last?.type === "turn_completed") result = { status: "completed", content: data.content ?? "", messages: [] };
  if (last?.type === "turn_halted") result = { status: "halted", content: data.content ?? "", messages: [] };
  if (last?.type === "turn_failed") result = { status: "failed", content: "", error: data.error ?? "failed", messages: [] };
  if (last?.type === "turn_waiting") result = { status: "waiting", content: "", messages: [] };
  if (!result) return undefined;
  if (data.usage) result.usage = data.usage;
  finishTurn(db, { id: turn.id, status: result.status, content: result.content, error: result.error ?? null, usage: result.usage ?? null });
  markTurnInactive(turn.id);
  if (result.status === "waiting") afterRun(db, turn.id);
  return { turnId: turn.id, recorder: new TurnRecorder(db, turn.id, turn.sessionId), done: Promise.resolve(result) };
}

/** spawn_subagent(s): a full turn of another agent in a new session (same tenant), one level deeper. */
function childRunner(db: Db, parent: SessionRow, depth: number, parentBudget: SubagentBudget): ChildRunner {
  return async (agentId, message, signal) => {
    const agent = getAgentOrThrow(db, agentId);
    const session = insertSession(db, { id: newId("ses"), agentId, tenant: parent.tenant });
    const child = await startNewTurn(db, { session, agent, message, depth: depth + 1, signal, parentBudget });
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

function crashPointOf(agent: AgentRow, message: string): CrashPoint | undefined {
  try {
    return scriptedCrashPoint(getEnv().INSIKA_SCRIPTED_DIR, agent.model.model, message);
  } catch {
    return undefined; // the model build reports a bad script
  }
}
