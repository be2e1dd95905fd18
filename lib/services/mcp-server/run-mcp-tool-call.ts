/**
 * One MCP tools/call, run as a turn would run it and traced as a turn: each call is a turn of
 * the MCP session (user message `MCP tools/call <tool>`) with the events a turn's call has —
 * turn_started, tool_call, approval_requested/approval_resolved, tool_result with its call
 * record, and turn_completed or turn_halted — so the Studio's trace shows it like any other.
 * The call goes through the agent's turn executor: argument validation, placeholders from the
 * session's ctx, the egress guard, halt_when. The turn is held (leased, active) while it
 * runs, so neither a decision nor the resume pass starts a model on it.
 */
import type { Db } from "@/db/database";
import { insertTurn, SessionBusyError, turnStartOrder } from "@/db/queries/turns";
import type { AgentRow, SessionRow } from "@/db/schema";
import type { Principal } from "@/lib/access/principal";
import type { HaltVerdict, ModelMessage, ToolOutcome } from "@/lib/engine/ports";
import { toolResultEvent } from "@/lib/engine/call-events";
import { errorOutcome, runToolCall } from "@/lib/engine/run-tool-call";
import { getEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { createApprovalGate, REJECTED_BY_OPERATOR } from "@/lib/services/approvals/approval-gate";
import { asRateLimited, turnRateLimit } from "@/lib/services/keys/rate-limit";
import { newId } from "@/lib/services/new-id";
import { markTurnActive, markTurnInactive, trackLeaseWrite } from "@/lib/services/turns/active-turns";
import { groupCommit } from "@/lib/services/turns/group-commit";
import { TurnRecorder } from "@/lib/services/turns/turn-recorder";
import { newLease } from "@/lib/services/turns/turn-leases";
import { agentMcpOffer } from "./agent-mcp-offer";
import { MCP_CALL_MESSAGE_PREFIX } from "./mcp-session-id";
import { awaitApprovalDecision, type ApprovalAnswer } from "./await-approval-decision";

export interface McpToolCallParams {
  agent: AgentRow;
  session: SessionRow;
  principal: Principal;
  /** The JSON-RPC id of the request (names the call in the trace). */
  requestId: string | number;
  tool: string;
  arguments: unknown;
  signal: AbortSignal;
  onProgress?: (message: string, waitedS: number, totalS: number) => void;
  /** Asks the client's user to approve (elicitation); absent when the client did not declare it. */
  askApproval?: (
    question: { tool: string; arguments: unknown; approvalId: string },
    signal: AbortSignal,
  ) => Promise<ApprovalAnswer | null>;
}

export interface McpToolCallResult {
  ok: boolean;
  /** What a model would have read (JSON text). */
  content: string;
  error?: string;
  halt?: HaltVerdict;
  /** The turn that records the call (its trace: GET /v1/sessions/:session/trace). */
  turnId: string;
}

/** The user message of an MCP call's turn. */
export const mcpCallMessage = (tool: string) => `${MCP_CALL_MESSAGE_PREFIX}${tool}`;

/** Runs and records one call; throws only for a refusal before anything ran (unknown tool, 429). */
export async function runMcpToolCall(db: Db, params: McpToolCallParams): Promise<McpToolCallResult> {
  const { agent, session, tool } = params;
  const turnId = newId("turn");
  const offer = await agentMcpOffer(db, agent, session, turnId);
  if (!offer.callable.has(tool)) {
    throw new DomainError("not_found", `unknown tool: ${tool} (agent '${agent.id}' is not offered it)`);
  }
  const lease = newLease();
  const rateLimit = turnRateLimit(params.principal);
  const message = mcpCallMessage(tool);
  const values = {
    id: turnId,
    sessionId: session.id,
    userMessage: message,
    runner: { instance: lease.instance, pid: lease.pid, leaseUntil: lease.now + lease.leaseMs },
    keyId: params.principal.keyId,
    ...(rateLimit ? { rateLimit } : {}),
  };
  try {
    await trackLeaseWrite(groupCommit(db, (tx) => insertTurn(tx, values), { orderedWith: turnStartOrder(values) }));
  } catch (error) {
    if (error instanceof SessionBusyError) throw new DomainError("conflict", error.message);
    throw asRateLimited(error);
  }
  markTurnActive(turnId);
  try {
    return await recordCall(db, params, { turnId, offer, message, instance: lease.instance });
  } finally {
    markTurnInactive(turnId);
  }
}

async function recordCall(
  db: Db,
  params: McpToolCallParams,
  run: { turnId: string; offer: Awaited<ReturnType<typeof agentMcpOffer>>; message: string; instance: string },
): Promise<McpToolCallResult> {
  const { tool, session, agent } = params;
  const { turnId, offer } = run;
  // The client picks request ids: a long one is cut (the call is the only one of its turn).
  const callId = `mcp_${String(params.requestId).slice(0, 64)}`;
  const identity = `mcp:${callId}`;
  const args = params.arguments ?? {};
  const recorder = await TurnRecorder.open(db, turnId, session.id, {
    fresh: true,
    lease: { instance: run.instance },
    sideEffect: (name: string) => offer.executor.sideEffect?.(name) ?? true,
    describeCall: offer.describeCall,
  });
  await recorder.emit({ type: "turn_started", turn_id: turnId });
  await recorder.emit({ type: "tool_call", call_id: callId, tool, arguments: args });

  let outcome: ToolOutcome | undefined;
  let durationMs = 0;
  let queuedMs = 0;
  if (offer.gated.has(tool)) {
    const queuedFrom = Date.now();
    outcome = await approve(db, params, { turnId, callId, identity, args, recorder });
    queuedMs = Date.now() - queuedFrom;
  }
  if (!outcome) {
    await recorder.callStarted({ identity, step: 0, position: 0, callId, tool, arguments: args });
    const started = Date.now();
    const end = await runToolCall({
      executor: offer.executor,
      request: { callId, tool, arguments: args, ctx: offer.ctx },
      timeoutS: agent.limits.tool_timeout,
      interrupt: params.signal,
    });
    durationMs = Date.now() - started;
    outcome = end.kind === "outcome" ? end.outcome : errorOutcome(`aborted: ${end.reason}`);
    await recorder.callCompleted({
      identity,
      step: 0,
      position: 0,
      callId,
      tool,
      ok: outcome.ok,
      content: outcome.content,
      ...(outcome.ok ? (outcome.halt ? { halt: outcome.halt } : {}) : { error: outcome.error }),
    });
  }
  const halt = outcome.ok ? outcome.halt : undefined;
  // The engine's own event, so a result too deeply nested to serialize is traced as text here too.
  const asked = { id: callId, name: tool, arguments: "" };
  await recorder.emit(
    toolResultEvent(asked, outcome, { durationMs, queuedMs }, { halted: halt !== undefined, replayed: false }),
  );
  const content = halt ? (halt.say ?? "") : outcome.content;
  await recorder.emit(halt ? { type: "turn_halted", content } : { type: "turn_completed", content });
  const messages: ModelMessage[] = [
    { role: "user", content: run.message },
    { role: "assistant", content: "", toolCalls: [{ id: callId, name: tool, arguments: JSON.stringify(args) }] },
    { role: "tool", callId, tool, content: outcome.content },
  ];
  await recorder.end({ status: halt ? "halted" : "completed", content, messages });
  return {
    ok: outcome.ok,
    content: outcome.content,
    ...(outcome.ok ? {} : { error: outcome.error }),
    ...(halt ? { halt } : {}),
    turnId,
  };
}

/** The approval of a gated call: undefined to go ahead, else the outcome that replaces the call. */
async function approve(
  db: Db,
  params: McpToolCallParams,
  call: { turnId: string; callId: string; identity: string; args: unknown; recorder: TurnRecorder },
): Promise<ToolOutcome | undefined> {
  const env = getEnv();
  const gate = createApprovalGate(db, {
    turnId: call.turnId,
    sessionId: params.session.id,
    tools: new Set([params.tool]),
    // An MCP client waits in the call: its approval lasts no longer than the wait.
    ttlS: Math.min(env.INSIKA_APPROVAL_TTL, env.INSIKA_MCP_APPROVAL_WAIT),
  });
  const decision = await gate.check({
    turnId: call.turnId,
    step: 0,
    position: 0,
    identity: call.identity,
    callId: call.callId,
    tool: params.tool,
    arguments: call.args,
  });
  const approvalId = "approval" in decision && decision.approval ? decision.approval.id : undefined;
  if (decision.action === "run" || !approvalId) return undefined;
  await call.recorder.emit({
    type: "approval_requested",
    approval_id: approvalId,
    call_id: call.callId,
    tool: params.tool,
    arguments: call.args,
  });
  const ask = params.askApproval;
  const end = await awaitApprovalDecision(db, {
    approvalId,
    principal: params.principal,
    signal: params.signal,
    ...(params.onProgress
      ? { onProgress: (waited, total) => params.onProgress!(`waiting for approval ${approvalId}`, waited, total) }
      : {}),
    ...(ask
      ? { ask: (signal: AbortSignal) => ask({ tool: params.tool, arguments: call.args, approvalId }, signal) }
      : {}),
  });
  if (end.decision === "cancelled") return errorOutcome(`not run: ${end.reason} (approval ${approvalId} withdrawn)`);
  await call.recorder.emit({
    type: "approval_resolved",
    approval_id: approvalId,
    call_id: call.callId,
    decision: end.decision,
    ...(end.expired ? { expired: true as const } : {}),
  });
  if (end.decision === "approved") return undefined;
  const why = end.expired
    ? `${REJECTED_BY_OPERATOR}: nobody decided approval ${approvalId} in time`
    : `${REJECTED_BY_OPERATOR}${end.note ? `: ${end.note}` : ""}`;
  return errorOutcome(why);
}
