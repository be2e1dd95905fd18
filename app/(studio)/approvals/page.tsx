import Link from "next/link";
import { PendingApproval } from "@/components/approvals/pending-approval";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Editable } from "@/components/ui/editable";
import { listPendingApprovalRows } from "@/lib/services/approvals/approval-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";
import { readOnlyReason } from "../studio-pages";

export const dynamic = "force-dynamic";

export default async function ApprovalsPage() {
  const principal = await requirePage("/approvals");
  const rows = await listPendingApprovalRows(studioDb(), principal);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Approvals"
        description="Tool calls waiting for a person's decision, oldest first. Approving runs the call; rejecting tells the model it was rejected. Either way the turn goes on."
      />
      {rows.length === 0 ? (
        <EmptyState title="Nothing is waiting for approval">
          A call waits here when its agent lists the tool under <em>Approval for</em> in its tool matrix (
          <Link className="underline" href="/agents">
            Agents
          </Link>
          ), or in <code>approvals</code> over the API.
        </EmptyState>
      ) : (
        <Editable readOnly={readOnlyReason(principal, ["approvals:decide"], "deciding approvals")}>
          <ul aria-label="Pending approvals" className="flex flex-col gap-3">
            {rows.map((row) => (
              <PendingApproval key={row.id} row={row} />
            ))}
          </ul>
        </Editable>
      )}
    </div>
  );
}
