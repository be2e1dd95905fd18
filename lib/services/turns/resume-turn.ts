/**
 * Resume: POST /v1/turns/:id/resume (resumeTurn), a decided approval (resumeInBackground), a
 * turn that stopped to wait on a decision already made (resumeIfDecided), and the resume pass
 * (at server start, then on every lease heartbeat): every running turn whose lease expired
 * (its owner died, or stalled past its lease), plus waiting turns whose approval was decided
 * or expired meanwhile. The run itself is launchTurn's (launch-turn.ts).
 */
import type { Db } from "@/db/database";
import { getApprovalForCall, withdrawTurnApprovals } from "@/db/queries/approvals";
import { ensureCheckpoint, getCheckpoint, lastTurnEvent } from "@/db/queries/checkpoints";
import { listResumableTurns } from "@/db/queries/leases";
import { getSession } from "@/db/queries/sessions";
import { getTurn, recordTurnEnd, updateTurnStatus } from "@/db/queries/turns";
import { lastEventSeq } from "@/db/queries/traces";
import { getAgentRecord } from "@/db/queries/agents";
import type { TurnRow } from "@/db/schema";
import { DomainError, notFound } from "@/lib/errors";
import { isTerminalEvent } from "@/lib/engine/ports";
import type { RunTurnResult } from "@/lib/engine/run-turn";
import { failureInfo } from "@/lib/engine/turn-failure";
import { describeError, log } from "@/lib/log";
import { isTurnActive, markTurnActive, markTurnInactive, noteLeaseHeld } from "./active-turns";
import { expireDueApprovals } from "@/lib/services/approvals/approvals";
import { loadResumeState } from "./load-resume-state";
import { claimHere } from "./turn-leases";
import { isMcpCallTurn } from "@/lib/services/mcp-server/mcp-session-id";
import { TurnRecorder, type EventListener } from "./turn-recorder";
import { resumedSubagentBudget } from "./turn-subagent-budget";
// launch-turn.ts imports resumeIfDecided back: a cycle of function declarations only, used
// at call time, never while either module is being evaluated.
import { launchTurn, type StartedTurn } from "./launch-turn";

/**
 * Resumes an interrupted (running, its lease expired) or waiting (its approval decided) turn
 * from its last checkpoint. Throws 404 for an unknown turn and 409 when the turn cannot be
 * resumed now: it runs (here, or in a process whose lease on it still holds), it ended, or
 * its approval is pending. A turn whose agent was deleted is not run again: it ends failed.
 */
export async function resumeTurn(
  db: Db,
  turnId: string,
  options: { listener?: EventListener } = {},
): Promise<StartedTurn> {
  // Reserved here before anything is read: two resumes of one turn in this process (each of
  // which the lease check would let through, the lease being this instance's) cannot both run it.
  if (!markTurnActive(turnId, { claiming: true })) throw new DomainError("conflict", "this turn is already running");
  let launched = false;
  try {
    const started = await claimAndLaunch(db, turnId, options);
    launched = true;
    return started;
  } finally {
    if (!launched) markTurnInactive(turnId);
  }
}

async function claimAndLaunch(db: Db, turnId: string, options: { listener?: EventListener }): Promise<StartedTurn> {
  const turn = await getTurn(db, turnId);
  if (!turn) throw notFound(`turn '${turnId}'`);
  if (turn.status !== "running" && turn.status !== "waiting")
    throw new DomainError("conflict", `this turn already ended (${turn.status})`);
  const session = await getSession(db, turn.sessionId);
  if (!session) throw notFound(`session '${turn.sessionId}'`);
  const agent = await getAgentRecord(db, session.agentId);
  if (!agent) throw notFound(`agent '${session.agentId}'`);

  if (turn.status === "waiting") {
    const pending = await pendingApproval(db, turn.id);
    if (pending)
      throw new DomainError("conflict", `this turn is waiting for approval ${pending}`, { approval_id: pending });
    const lease = await claimHere(db, turnId, "waiting");
    if (!lease) throw new DomainError("conflict", "this turn was resumed by someone else");
    noteLeaseHeld(turnId, lease.now + lease.leaseMs);
  } else {
    await ensureCheckpoint(db, { turnId, userMessage: turn.userMessage });
    const lease = await claimHere(db, turnId, "running");
    if (!lease) throw await heldElsewhere(db, turnId, Date.now());
    noteLeaseHeld(turnId, lease.now + lease.leaseMs);
  }
  const announced = turn.status === "running" ? await closeAnnouncedEnd(db, turn) : undefined;
  if (announced) throw announced;
  if (agent.archivedAt !== null)
    return endUnresumable(
      db,
      turn,
      failureInfo("agent_deleted", "the agent of this turn was deleted; the turn was not resumed"),
    );
  // An MCP call's turn is one tool call its client waited for; no model may take it over.
  if (isMcpCallTurn(turn)) return endUnresumable(db, turn, failureInfo("resume_failed", MCP_CALL_NOT_RESUMED));
  const { resume, depth } = await loadResumeState(db, turn);
  const subagentBudget = await resumedSubagentBudget(db, { turnId, agent, resume });
  return launchTurn(db, {
    turnId,
    session,
    agent,
    message: turn.userMessage,
    depth,
    resume,
    subagentBudget,
    ...(options.listener ? { listener: options.listener } : {}),
  });
}

/** The 409 for a running turn whose lease another process holds (or someone just took). */
async function heldElsewhere(db: Db, turnId: string, now: number): Promise<DomainError> {
  const row = await getCheckpoint(db, turnId);
  if (!row?.runnerInstance || row.leaseExpiresAt === null || row.leaseExpiresAt <= now)
    return new DomainError("conflict", "this turn was resumed by someone else");
  const seconds = Math.ceil((row.leaseExpiresAt - now) / 1000);
  return new DomainError(
    "conflict",
    `this turn is running in another process (instance ${row.runnerInstance}, pid ${row.runnerPid ?? "?"}); its lease expires in ${seconds}s unless renewed`,
    {
      runner_instance: row.runnerInstance,
      lease_expires_at: new Date(row.leaseExpiresAt).toISOString(),
    },
  );
}

/** What an MCP call's turn found running by the resume pass ends with (its process died mid-call). */
export const MCP_CALL_NOT_RESUMED =
  "an MCP tools/call interrupted by its process ending; MCP calls are not resumed (the client got no answer and may call again)";

/** A claimed turn that must not run again (its agent was deleted; an MCP call): recorded as failed, with its terminal event, its pending approvals withdrawn. */
async function endUnresumable(db: Db, turn: TurnRow, failure: ReturnType<typeof failureInfo>): Promise<StartedTurn> {
  const event = {
    turnId: turn.id,
    seq: (await lastEventSeq(db, turn.id)) + 1,
    type: "turn_failed",
    data: { ...failure },
    at: Date.now(),
  };
  // Its pending approval goes with it: approved later, it would run nothing.
  const note = `withdrawn: the turn ended without running the call (${failure.error})`;
  try {
    await db.transaction(async (tx) => {
      await recordTurnEnd(tx, { event, messages: [], turn: { id: turn.id, status: "failed", error: failure.error } });
      await withdrawTurnApprovals(tx, { turnId: turn.id, note });
    });
  } finally {
    markTurnInactive(turn.id);
  }
  const result: RunTurnResult = { status: "failed", content: "", ...failure, messages: [] };
  const recorder = await TurnRecorder.open(db, turn.id, turn.sessionId);
  return { turnId: turn.id, recorder, done: Promise.resolve(result) };
}

/** Resumes a turn without anyone waiting on it; "cannot resume now" is not an error here. */
export async function resumeInBackground(db: Db, turnId: string): Promise<void> {
  try {
    (await resumeTurn(db, turnId)).done.catch(() => undefined);
  } catch (error) {
    if (error instanceof DomainError && error.code === "conflict")
      log.debug("resume skipped", { turn_id: turnId, reason: error.message });
    else log.error("resume failed", { turn_id: turnId, ...describeError(error) });
  }
}

/** The pending (and not yet expired) approval a waiting turn waits on, if any. */
export async function pendingApproval(db: Db, turnId: string): Promise<string | undefined> {
  const waitingOn = (await getCheckpoint(db, turnId))?.state.waitingOn;
  if (!waitingOn) return undefined;
  const approval = await getApprovalForCall(db, { turnId, identity: waitingOn.identity });
  return approval?.status === "pending" && approval.expiresAt > Date.now() ? approval.id : undefined;
}

/** A turn that stopped to wait may already have its decision (decided during the run): go on. */
export async function resumeIfDecided(db: Db, turnId: string): Promise<void> {
  try {
    if ((await getTurn(db, turnId))?.status === "waiting" && !(await pendingApproval(db, turnId)))
      await resumeInBackground(db, turnId);
  } catch (error) {
    log.error("post-turn check failed", { turn_id: turnId, ...describeError(error) });
  }
}

/**
 * A running turn whose trace already ends: only a database written before a run's end became
 * one commit (b92c7a9; the terminal event and the turn row were two) can hold one, left by a
 * crash between them. Running it again would announce a second end, so it is refused, and the
 * row is closed as the trace says it ended (a 409 naming it); nothing else is replayed.
 */
async function closeAnnouncedEnd(db: Db, turn: TurnRow): Promise<DomainError | undefined> {
  const last = await lastTurnEvent(db, turn.id);
  if (!last || !isTerminalEvent(last.type)) return undefined;
  const data = last.data as { content?: string; error?: string; usage?: RunTurnResult["usage"] };
  const status =
    last.type === "turn_completed"
      ? "completed"
      : last.type === "turn_halted"
        ? "halted"
        : last.type === "turn_waiting"
          ? "waiting"
          : "failed";
  await updateTurnStatus(db, {
    id: turn.id,
    status,
    content: data.content ?? "",
    error: status === "failed" ? (data.error ?? "failed") : null,
    usage: data.usage ?? null,
  });
  markTurnInactive(turn.id);
  return new DomainError(
    "conflict",
    `this turn already ended (${last.type} was recorded; its row is now closed to match)`,
  );
}

/**
 * Resumes, in the background, the turns this process may pick up now: running ones whose
 * lease has expired (claimTurn takes each atomically; a lease still held is skipped), and
 * waiting ones that no longer wait. Returns the ids it tried.
 */
export async function resumeInterruptedTurns(db: Db, now = Date.now()): Promise<string[]> {
  await expireDueApprovals(db, now); // expiries resume their own turns
  const tried: string[] = [];
  for (const turn of await listResumableTurns(db, now)) {
    if (isTurnActive(turn.id)) continue;
    if (turn.status === "waiting" && (await pendingApproval(db, turn.id))) continue;
    tried.push(turn.id);
    void resumeInBackground(db, turn.id);
  }
  if (tried.length > 0) log.info("resuming interrupted turns", { turns: tried });
  return tried;
}
