import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope } from "@/lib/access/principal";
import { listAgentSummaries } from "@/lib/services/agents/agent-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  const principal = await requirePage("/agents");
  const agents = await listAgentSummaries(studioDb());
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Agents"
        description="Instructions, model, limits, and which tools each agent's turns are offered."
        actions={
          hasAnyScope(principal, ["agents:write"]) ? (
            <Link href="/agents/new" className={buttonClass()}>
              New agent
            </Link>
          ) : null
        }
      />
      {agents.length === 0 ? (
        <EmptyState title="No agents yet">
          <Link className="underline" href="/agents/new">
            Create an agent
          </Link>
          , or PUT one to <code>/v1/agents/:id</code> or declare it in <code>insika.config.ts</code>.
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {agents.map((agent) => (
            <li key={agent.id}>
              <Link
                href={`/agents/${agent.id}`}
                data-agent={agent.id}
                className="flex h-full flex-col gap-1 rounded border border-zinc-200 p-4 hover:border-zinc-400 dark:border-zinc-800 dark:hover:border-zinc-600"
              >
                <span className="font-medium">{agent.name}</span>
                <span className="font-mono text-xs text-zinc-500">
                  {agent.id} · {agent.provider}: {agent.model}
                </span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {agent.offered} offered · {agent.deferred} deferred · {agent.denied} denied
                  {agent.allTools ? " · no allowlist (all tools)" : ""}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
