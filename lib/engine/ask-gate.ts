import type { EventLog } from "./event-log";
import type { GateDecision, GateRequest, ToolGate } from "./ports";
import { errorMessage } from "./turn-failure";

/** What the batch does with a call after asking the gate. */
export type GateVerdict = { action: "run" } | { action: "wait" } | { action: "refuse"; error: string };

/**
 * Asks the approval gate about one call (DESIGN D8) and announces its approval in order with
 * the call: `approval_requested` when the gate just created one, `approval_resolved` when it
 * reports a decision (an expiry is a rejection). Never rejects: a gate that throws refuses
 * the call with `approval check failed: <why>`, since running it unapproved is not an option.
 */
export async function askGate(gate: ToolGate, request: GateRequest, events: EventLog): Promise<GateVerdict> {
  let decision: GateDecision;
  try {
    decision = await gate.check(request);
  } catch (error) {
    return { action: "refuse", error: `approval check failed: ${errorMessage(error)}` };
  }
  const approval = decision.approval;
  if (approval?.state === "requested") {
    await events.record({
      type: "approval_requested",
      approval_id: approval.id,
      call_id: request.callId,
      tool: request.tool,
      arguments: request.arguments,
    });
  } else if (approval && approval.state !== "pending") {
    await events.record({
      type: "approval_resolved",
      approval_id: approval.id,
      call_id: request.callId,
      decision: approval.state === "approved" ? "approved" : "rejected",
      ...(approval.state === "expired" ? { expired: true as const } : {}),
    });
  }
  if (decision.action === "refuse") return { action: "refuse", error: decision.error };
  return { action: decision.action };
}
