// A turn the resume pass ends without running it again (an MCP call whose process died while
// its call waited on an approval) takes its pending approval with it: left pending, it would be
// listed for an operator to approve, answered 200 and audited as approved, and run nothing.
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { getApproval, listApprovals } from "@/db/queries/approvals";
import { insertSession } from "@/db/queries/sessions";
import { getTurn, insertTurn } from "@/db/queries/turns";
import { operatorPrincipal } from "@/lib/access/principal";
import { decideApproval } from "@/lib/services/approvals/approvals";
import { agentRow } from "@/test/support/agent-row";
import { resumeTurn } from "./resume-turn";
import { insertPendingApproval } from "@/test/support/pending-approval";

/** An MCP call's turn, its process gone (lease long expired), its call waiting on approval "apr_1". */
async function diedWhileWaiting() {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a", { approvals: ["pay"] }));
  await insertSession(db, { id: "mcp_s", agentId: "a", tenant: null });
  await insertTurn(db, {
    id: "t",
    sessionId: "mcp_s",
    userMessage: "MCP tools/call pay",
    runner: { instance: "ins_dead", pid: 4242, leaseUntil: 10_000 },
  });
  await insertPendingApproval(db, {
    turnId: "t",
    sessionId: "mcp_s",
    callId: "mcp_1",
    identity: "mcp:mcp_1",
    arguments: { amount: 100 },
  });
  return db;
}

describe("a turn the resume pass ends unrun", () => {
  it("withdraws its pending approval: expired with why, and a decision then is 409", async () => {
    const db = await diedWhileWaiting();
    await (
      await resumeTurn(db, "t")
    ).done;
    expect(await getTurn(db, "t")).toMatchObject({ status: "failed" });
    expect(await getApproval(db, "apr_1")).toMatchObject({
      status: "expired",
      note: expect.stringContaining("withdrawn: the turn ended without running the call"),
    });
    expect(await listApprovals(db, { status: "pending" })).toEqual([]);
    await expect(decideApproval(db, operatorPrincipal("cli"), "apr_1", { decision: "approved" })).rejects.toMatchObject(
      { code: "conflict", details: { status: "expired" } },
    );
  });
});
