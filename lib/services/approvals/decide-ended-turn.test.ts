// An approval still pending although its turn has ended (left so by a version before approvals
// were withdrawn with their turn, or by any path that ends a turn and forgets them) cannot be
// decided: approving it would be answered and audited as approved and run nothing.
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { getApproval } from "@/db/queries/approvals";
import { listAuditEntries } from "@/db/queries/audit-log";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn, updateTurnStatus } from "@/db/queries/turns";
import { operatorPrincipal } from "@/lib/access/principal";
import { agentRow } from "@/test/support/agent-row";
import { decideApproval } from "./approvals";
import { insertPendingApproval } from "@/test/support/pending-approval";

async function pendingApprovalOfEndedTurn(status: "completed" | "failed" | "halted") {
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("a", { approvals: ["pay"] }));
  await insertSession(db, { id: "s", agentId: "a", tenant: null });
  await insertTurn(db, { id: "t", sessionId: "s", userMessage: "pay" });
  await updateTurnStatus(db, { id: "t", status, content: "", error: status === "failed" ? "gone" : null });
  await insertPendingApproval(db, { turnId: "t", sessionId: "s", callId: "c1" });
  return db;
}

describe("deciding an approval whose turn has ended", () => {
  it.each(["completed", "failed", "halted"] as const)(
    "is 409 when the turn is %s, withdraws the approval, and audits no decision",
    async (status) => {
      const db = await pendingApprovalOfEndedTurn(status);
      await expect(
        decideApproval(db, operatorPrincipal("cli"), "apr_1", { decision: "approved" }),
      ).rejects.toMatchObject({
        code: "conflict",
        message: expect.stringContaining(`its turn already ended (${status})`),
        details: { status: "expired" },
      });
      expect(await getApproval(db, "apr_1")).toMatchObject({
        status: "expired",
        note: `withdrawn: its turn already ended (${status})`,
      });
      expect(await listAuditEntries(db, { limit: 10 })).toEqual([]);
    },
  );
});
