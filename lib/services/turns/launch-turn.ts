/**
 * Running a turn in this process, fresh or resumed: the engine with persistence behind its
 * ports, the turn row kept in step with how the run ended, and the hand-offs around it
 * (a child turn for spawn_subagent). Resuming (which turn, from where) is resume-turn.ts.
 */
import type { Db } from "@/db/client";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn, SessionBusyError, updateTurnStatus } from "@/db/queries/turns";
import type { AgentRow, SessionRow } from "@/db/schema";
import { DEFAULT_LIMITS } from "@/lib/agents/agent-input";
import { DomainError } from "@/lib/errors";
import { SubagentBudget, subagentTurnsStarted } from "@/lib/code-tools/system/subagent-budget";
import type { ResumeState } from "@/lib/engine/ports";
import { runTurn, type RunTurnResult } from "@/lib/engine/run-turn";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { markTurnActive, markTurnInactive } from "./active-turns";
import { getAgentOrThrow } from "@/lib/services/agents/agents";
import { newId } from "@/lib/services/new-id";
import { resumeIfDecided } from "./resume-turn";
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

export interface LaunchParams {
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
    if (error instanceof SessionBusyError)
      throw new DomainError("conflict", "this session already has a turn in progress");
    throw asRateLimited(error);
  }
  markTurnActive(turnId);
  return launchTurn(db, { ...params, turnId, fresh: true, ...(crash ? { crash } : {}) });
}

/**
 * Runs a turn whose row exists and is claimed by this process (fresh from startNewTurn, or
 * resumed from a checkpoint by resumeTurn): the engine with persistence behind its ports.
 * Returns at once; `done` settles when the run ends or starts waiting.
 */
export function launchTurn(db: Db, params: LaunchParams): StartedTurn {
  const { turnId, session, agent } = params;
  let started: StartedTurn;
  try {
    // A resumed turn goes on counting from the children its checkpoint shows it started.
    const startedBefore = params.resume ? subagentTurnsStarted(params.resume) : 0;
    const subagentBudget = new SubagentBudget(
      agent.limits.max_subagent_turns ?? DEFAULT_LIMITS.max_subagent_turns,
      params.parentBudget,
      startedBefore,
    );
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
      if (result.status === "waiting") resumeIfDecided(db, turnId);
    },
    (error: unknown) => {
      markTurnInactive(turnId);
      // Taken over by another process: the turn is theirs now; writing "failed" would undo it.
      if (error instanceof LeaseLostError)
        return log.warn("turn taken over by another process; this run stopped", { turn_id: turnId });
      // Persistence itself failed: say so in the log and leave the turn failed, never running forever.
      log.error("turn persistence failed", { turn_id: turnId, ...describeError(error) });
      try {
        // No event can say why (recording is what failed): the code is recording_failed, in the log.
        updateTurnStatus(db, { id: turnId, status: "failed", error: "internal error while recording the turn" });
      } catch {
        // the database is gone; the log line above is all we can do
      }
    },
  );
  return started;
}

/** spawn_subagent(s): a full turn of another agent in a new session (same tenant), one level deeper. */
export function childRunner(db: Db, parent: SessionRow, depth: number, parentBudget: SubagentBudget): ChildRunner {
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
