import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { AgentMcpEndpoint } from "@/components/agents/agent-mcp-endpoint";
import { AgentForm } from "@/components/agents/agent-form";
import { DeleteAgentButton } from "@/components/agents/delete-agent-button";
import { DialectProblemList } from "@/components/agents/dialect-problem-list";
import { ToolMatrix } from "@/components/agents/tool-matrix";
import { buttonClass } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Editable } from "@/components/ui/editable";
import { hasAnyScope } from "@/lib/access/principal";
import { isHttpsRequest } from "@/lib/api/request-origin";
import { getAgentEditor } from "@/lib/services/agents/agent-page";
import { listDialectProblems } from "@/lib/services/agents/dialect-problems";
import { studioDb } from "../../action-result";
import { requirePage } from "../../page-access";
import { readOnlyReason } from "../../studio-pages";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ tab?: string }> };

export default async function AgentPage({ params, searchParams }: Props) {
  const principal = await requirePage("/agents");
  const readOnly = readOnlyReason(principal, ["agents:write"], "changing agents");
  const { id } = await params;
  const tab = (await searchParams).tab === "tools" ? "tools" : "settings";
  const db = studioDb();
  const row = await getAgentEditor(db, id);
  if (!row) notFound();
  const dialectProblems = await listDialectProblems(db, { agent: id });
  const h = await headers();
  const host = (h.get("x-forwarded-host") ?? h.get("host") ?? "localhost").split(",")[0]!.trim();
  const mcpUrl = `${isHttpsRequest(h) ? "https" : "http"}://${host}/v1/agents/${encodeURIComponent(id)}/mcp`;
  const tabLink = (t: string, label: string) => (
    <Link
      href={`/agents/${id}?tab=${t}`}
      aria-current={tab === t ? "page" : undefined}
      className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm aria-[current=page]:border-zinc-900 aria-[current=page]:font-medium dark:aria-[current=page]:border-zinc-100"
    >
      {label}
    </Link>
  );
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={row.name}
        description={
          <span className="font-mono">
            {row.id} · {row.model.provider}: {row.model.model}
          </span>
        }
        actions={
          <>
            {hasAnyScope(principal, ["turns:run"]) ? (
              <Link className={buttonClass("secondary")} href={`/playground?agent=${encodeURIComponent(id)}`}>
                Open in playground
              </Link>
            ) : null}
            {readOnly ? null : <DeleteAgentButton id={id} />}
          </>
        }
      />
      <DialectProblemList
        title="This agent's provider would reject some of the tools it is offered"
        rows={dialectProblems.map((p) => ({ who: p.tool, dialect: p.dialect, message: p.message }))}
      />
      <AgentMcpEndpoint agentId={id} url={mcpUrl} />
      <nav aria-label="Agent sections" className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {tabLink("settings", "Settings")}
        {tabLink("tools", "Tools")}
      </nav>
      <Editable readOnly={readOnly}>
        {tab === "settings" ? (
          <AgentForm id={id} stored={row.body} />
        ) : (
          <ToolMatrix agentId={id} tools={row.tools} initial={row.policy} />
        )}
      </Editable>
    </div>
  );
}
