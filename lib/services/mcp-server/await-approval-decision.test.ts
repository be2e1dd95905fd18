import { describe, expect, it } from "vitest";
import { openDb, type Db } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { decideApproval, getApproval, listApprovals } from "@/db/queries/approvals";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { operatorPrincipal } from "@/lib/access/principal";
import { decideApproval as decideApprovalAs } from "@/lib/services/approvals/approvals";
import { markTurnActive, markTurnInactive } from "@/lib/services/turns/active-turns";
import { agentRow } from "@/test/support/agent-row";
import { awaitApprovalDecision, CALL_CANCELLED_NOTE } from "./await-approval-decision";
import { insertPendingApproval } from "@/test/support/pending-approval";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A turn (held active, as an MCP call's is) with one pending approval expiring in `ttlMs`. */
async function fixture(ttlMs = 10_000): Promise<{ db: Db; id: string; done: () => void }> {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a", { approvals: ["pay"] }));
  await insertSession(db, { id: "mcp_s", agentId: "a", tenant: null });
  await insertTurn(db, { id: "t", sessionId: "mcp_s", userMessage: "MCP tools/call pay" });
  markTurnActive("t");
  await insertPendingApproval(db, { turnId: "t", sessionId: "mcp_s", callId: "mcp_1", identity: "mcp:mcp_1" }, ttlMs);
  return { db, id: "apr_1", done: () => markTurnInactive("t") };
}

const principal = operatorPrincipal("api");

describe("awaitApprovalDecision", () => {
  it("waits for a decision made meanwhile (by anyone, through the database), reporting progress", async () => {
    const { db, id, done } = await fixture();
    const progress: number[] = [];
    setTimeout(() => void decideApproval(db, { id, status: "approved", note: "fine" }), 1_200);
    const end = await awaitApprovalDecision(db, {
      approvalId: id,
      principal,
      signal: new AbortController().signal,
      onProgress: (waited) => progress.push(waited),
    });
    done();
    expect(end).toEqual({ decision: "approved", expired: false, note: "fine" });
    expect(progress.length).toBeGreaterThan(0);
  });

  it("ends as an expired rejection when nobody decides in time", async () => {
    const { db, id, done } = await fixture(300);
    const end = await awaitApprovalDecision(db, { approvalId: id, principal, signal: new AbortController().signal });
    done();
    expect(end).toEqual({ decision: "rejected", expired: true, note: null });
    expect((await getApproval(db, id))?.status).toBe("expired");
  });

  it("ends when the call is cancelled, withdrawing the approval: nobody can approve a call that will never run", async () => {
    const { db, id, done } = await fixture();
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 100);
    const end = await awaitApprovalDecision(db, { approvalId: id, principal, signal: cancel.signal });
    done();
    expect(end).toEqual({ decision: "cancelled", reason: "the client cancelled the call" });
    expect(await getApproval(db, id)).toMatchObject({ status: "expired", note: CALL_CANCELLED_NOTE });
    expect(await listApprovals(db, { status: "pending" })).toEqual([]);
    // An operator's decision arriving now is refused as already expired, not recorded as approved.
    await expect(decideApprovalAs(db, operatorPrincipal("cli"), id, { decision: "approved" })).rejects.toMatchObject({
      code: "conflict",
      details: { status: "expired" },
    });
  });

  it("keeps a decision that landed before the cancellation was seen", async () => {
    const { db, id, done } = await fixture();
    const cancel = new AbortController();
    setTimeout(() => void decideApproval(db, { id, status: "rejected", note: "no" }).then(() => cancel.abort()), 50);
    await awaitApprovalDecision(db, { approvalId: id, principal, signal: cancel.signal });
    done();
    expect(await getApproval(db, id)).toMatchObject({ status: "rejected", note: "no" });
  });

  it("records the client's user's answer (elicitation) as the decision", async () => {
    const { db, id, done } = await fixture();
    const end = await awaitApprovalDecision(db, {
      approvalId: id,
      principal,
      signal: new AbortController().signal,
      ask: async () => ({ decision: "rejected", note: "not today" }),
    });
    done();
    expect(end).toEqual({ decision: "rejected", expired: false, note: "not today" });
  });

  it("withdraws the question when the operator decides first, and a late answer decides nothing", async () => {
    const { db, id, done } = await fixture();
    let asked: AbortSignal | undefined;
    setTimeout(() => void decideApproval(db, { id, status: "approved" }), 150);
    const end = await awaitApprovalDecision(db, {
      approvalId: id,
      principal,
      signal: new AbortController().signal,
      ask: async (signal) => {
        asked = signal;
        await sleep(600);
        return { decision: "rejected", note: "late" };
      },
    });
    expect(end.decision).toBe("approved");
    expect(asked?.aborted).toBe(true);
    await sleep(700);
    done();
    expect(await getApproval(db, id)).toMatchObject({ status: "approved", note: null });
  });
});
