"use client";
import { useState, useTransition } from "react";
import { decideApprovalAction } from "@/app/(studio)/playground/actions";
import { Button } from "@/components/ui/button";

/**
 * A call waiting for a person's decision (DESIGN D8). The buttons go through
 * decideApprovalAction, the seam the approvals issue fills in.
 */
export function ApprovalCard({ approvalId, tool, args }: { approvalId: string; tool: string; args: unknown }) {
  const [note, setNote] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const decide = (decision: "approved" | "rejected") =>
    start(async () => {
      const r = await decideApprovalAction(approvalId, decision);
      setNote(r.ok ? `Sent: ${decision}` : r.error);
    });
  return (
    <div role="group" aria-label={`Approval for ${tool}`} className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
      <p>
        <span className="font-semibold">Waiting for approval:</span> <span className="font-mono">{tool}</span> <span className="font-mono text-xs">{JSON.stringify(args)}</span>
      </p>
      <div className="flex items-center gap-2">
        <Button onClick={() => decide("approved")} disabled={pending}>Approve</Button>
        <Button variant="danger" onClick={() => decide("rejected")} disabled={pending}>Reject</Button>
        {note ? <span role="status" className="text-xs">{note}</span> : null}
      </div>
    </div>
  );
}
