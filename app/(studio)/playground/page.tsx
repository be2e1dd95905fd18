import Link from "next/link";
import { Playground } from "@/components/playground/playground";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { listAgentSummaries } from "@/lib/services/agents/agent-page";
import { listPendingApprovalRows } from "@/lib/services/approvals/approval-page";
import { studioDb } from "../action-result";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ agent?: string; session?: string }> };

export default async function PlaygroundPage({ searchParams }: Props) {
  await requireStudioSession();
  const { agent, session } = await searchParams;
  const agents = listAgentSummaries(studioDb());
  const current = agents.find((a) => a.id === agent) ?? agents[0];
  // An earlier turn of this session may be waiting on a person: say so, since this view only shows new turns.
  const waiting = session ? listPendingApprovalRows(studioDb()).filter((a) => a.session_id === session) : [];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Playground" description="Chat with an agent. Verify by the trace, never by the reply: every tool call links to its record." />
      {waiting.length > 0 ? (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          A turn of this session is waiting for approval of {waiting.map((a) => a.tool).join(", ")}: decide it on the <Link className="underline" href="/approvals">Approvals</Link> page, then the turn goes on.
        </p>
      ) : null}
      {current ? (
        <Playground
          key={`${current.id}:${session ?? ""}`}
          agents={agents.map((a) => ({ id: a.id, name: a.name }))}
          agentId={current.id}
          sessionId={session ?? null}
          example={current.provider === "demo" ? "The demo model calls the tool your message names, with key=value arguments, e.g. “search_catalog query=lamp”." : ""}
        />
      ) : (
        <EmptyState title="No agent to talk to">
          <Link className="underline" href="/agents/new">Create an agent</Link> first.
        </EmptyState>
      )}
    </div>
  );
}
