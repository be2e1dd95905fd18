import Link from "next/link";
import { Playground } from "@/components/playground/playground";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope, mayUseAgent } from "@/lib/access/principal";
import { listAgentSummaries } from "@/lib/services/agents/agent-page";
import { listSessionPendingApprovalRows } from "@/lib/services/approvals/approval-page";
import { listSessionRows } from "@/lib/services/sessions/session-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";
import { RecentSessions } from "./recent-sessions";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ agent?: string; session?: string }> };

export default async function PlaygroundPage({ searchParams }: Props) {
  const principal = await requirePage("/playground");
  const { agent, session: asked } = await searchParams;
  const db = studioDb();
  // The picker lists only the agents this key may use; the sessions only those it may see.
  const agents = (await listAgentSummaries(db)).filter((a) => mayUseAgent(principal, a.id));
  const current = agents.find((a) => a.id === agent) ?? agents[0];
  const sessions = current ? await listSessionRows(db, current.id, principal) : [];
  const session = asked && sessions.some((s) => s.id === asked) ? asked : undefined;
  // An earlier turn of this session may be waiting on a person: say so, since this view only shows new turns.
  const waiting = session ? await listSessionPendingApprovalRows(db, principal, session) : [];
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Playground"
        description="Chat with an agent. Verify by the trace, never by the reply: every tool call links to its record."
      />
      {waiting.length > 0 ? (
        <p
          role="status"
          className="rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          A turn of this session is waiting for approval of {waiting.map((a) => a.tool).join(", ")}: decide it{" "}
          {hasAnyScope(principal, ["approvals:decide", "traces:read"]) ? (
            <>
              on the{" "}
              <Link className="underline" href="/approvals">
                Approvals
              </Link>{" "}
              page
            </>
          ) : (
            "with a key that has approvals:decide"
          )}
          , then the turn goes on.
        </p>
      ) : null}
      {current ? (
        <Playground
          key={`${current.id}:${session ?? ""}`}
          agents={agents.map((a) => ({ id: a.id, name: a.name }))}
          agentId={current.id}
          sessionId={session ?? null}
          example={
            current.provider === "demo"
              ? "The demo model calls the tool your message names, with key=value arguments, e.g. “search_catalog query=lamp”."
              : ""
          }
        />
      ) : (
        <EmptyState title="No agent to talk to">
          {principal.agents ? (
            "None of the agents this key may use exists any more."
          ) : (
            <>
              <Link className="underline" href="/agents/new">
                Create an agent
              </Link>{" "}
              first.
            </>
          )}
        </EmptyState>
      )}
      {current ? (
        <RecentSessions agentId={current.id} current={session ?? null} sessions={sessions.slice(0, 20)} />
      ) : null}
    </div>
  );
}
