import Link from "next/link";
import { notFound } from "next/navigation";
import { DialectProblemList } from "@/components/agents/dialect-problem-list";
import { ToolEditor } from "@/components/tools/tool-editor";
import { ToolExposure } from "@/components/tools/tool-exposure";
import { ToolTabs, type ToolTab } from "@/components/tools/tool-tabs";
import { TryIt } from "@/components/tools/try-it";
import { VersionHistory } from "@/components/tools/version-history";
import { Badge, KIND_TONE } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { Editable } from "@/components/ui/editable";
import { listDialectProblems } from "@/lib/services/agents/dialect-problems";
import { ToolCallHistory } from "@/components/overview/tool-call-history";
import { hasAnyScope, type Principal } from "@/lib/access/principal";
import { getToolCallHistory } from "@/lib/services/observability/overview";
import { getCatalog, reservedToolNames } from "@/lib/services/tools/catalog";
import { toolExposureByAgent, tryItContext } from "@/lib/services/tools/tool-page";
import { getToolDetail, listToolHistory } from "@/lib/services/tools/tools";
import { studioDb } from "../../action-result";
import { requirePage } from "../../page-access";
import { readOnlyReason } from "../../studio-pages";
import { CodeToolView } from "./code-tool-view";
import { searchParam, type PageSearchParams } from "../../search-param";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ name: string }>;
  searchParams: Promise<PageSearchParams>;
};

export default async function ToolPage({ params, searchParams }: Props) {
  const principal = await requirePage("/tools");
  const toolsReadOnly = readOnlyReason(principal, ["tools:write"], "changing tools");
  const agentsReadOnly = readOnlyReason(principal, ["agents:write"], "changing which agents are offered a tool");
  const { name } = await params;
  const query = await searchParams;
  const tab = searchParam(query, "tab");
  const saved = searchParam(query, "saved");
  const window = searchParam(query, "window");
  const db = studioDb();
  const entry = (await getCatalog(db)).entries.get(name);
  let detail: Record<string, unknown>;
  try {
    detail = (await getToolDetail(db, name)) as Record<string, unknown>;
  } catch {
    notFound();
  }
  const isSystem = detail.system === true;
  const dialectProblems = await listDialectProblems(db, { tool: name });
  const isCode = isSystem || entry?.kind === "code";
  // A system tool runs only inside a turn that is offered it: nothing to try on its own.
  const tabs: ToolTab[] = isSystem
    ? ["definition", "agents"]
    : isCode
      ? ["definition", "try", "agents"]
      : ["definition", "try", "history", "agents"];
  const current = (tabs as string[]).includes(tab ?? "") ? (tab as ToolTab) : "definition";
  const kind = String(detail.kind ?? entry?.kind ?? "data");

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={<span className="font-mono">{name}</span>}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={KIND_TONE[kind]}>{kind}</Badge>
            {isSystem ? <Badge tone="violet">system</Badge> : null}
            {entry?.status === "dropped" ? (
              <Badge tone="red">dropped</Badge>
            ) : (
              <Badge tone="green">in the catalog</Badge>
            )}
            {typeof detail.version === "number" ? <span>version {detail.version}</span> : null}
            <Link className="underline" href="/tools">
              All tools
            </Link>
          </span>
        }
      />
      {entry?.status === "dropped" ? (
        <p
          role="alert"
          className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          This stored tool no longer validates, so it is dropped from the catalog and no agent is offered it:{" "}
          {entry.problem}. Fix it below and save.
        </p>
      ) : null}
      {saved && current === "definition" ? (
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          Saved version {saved}. The catalog reloaded: agents see it on their next turn.
        </p>
      ) : null}
      <DialectProblemList
        title="Providers of agents offered this tool would reject its parameters"
        rows={dialectProblems.map((p) => ({ who: p.agent, dialect: p.dialect, message: p.message }))}
      />
      {hasAnyScope(principal, ["traces:read"]) ? (
        <ToolCallHistory
          tool={name}
          history={await getToolCallHistory(db, name, { window, tenant: principal.tenant ?? undefined })}
        />
      ) : null}
      <ToolTabs name={name} current={current} tabs={tabs} />
      {current === "definition" ? (
        isCode ? (
          <CodeToolView detail={detail} />
        ) : (
          <Editable readOnly={toolsReadOnly}>
            <ToolEditor key={String(detail.version)} stored={detail} reservedNames={[...reservedToolNames()]} />
          </Editable>
        )
      ) : null}
      {current === "try" ? (
        <Editable readOnly={readOnlyReason(principal, ["tools:write"], "trying a tool")}>
          <TryIt tool={name} parameters={detail.parameters} defaultCtx={await tryItContext(db, name)} />
        </Editable>
      ) : null}
      {current === "history" ? (
        <History
          name={name}
          current={typeof detail.version === "number" ? detail.version : null}
          principal={principal}
        />
      ) : null}
      {current === "agents" ? (
        <Editable readOnly={agentsReadOnly}>
          <ToolExposure tool={name} rows={await toolExposureByAgent(db, name)} system={isSystem} />
        </Editable>
      ) : null}
    </div>
  );
}

async function History({ name, current, principal }: { name: string; current: number | null; principal: Principal }) {
  let versions: Awaited<ReturnType<typeof listToolHistory>>;
  try {
    versions = await listToolHistory(studioDb(), name);
  } catch {
    return <p className="text-sm text-zinc-500">No history yet.</p>;
  }
  return (
    <Editable readOnly={readOnlyReason(principal, ["tools:write"], "restoring a version")}>
      <VersionHistory tool={name} versions={versions} current={current} />
    </Editable>
  );
}
