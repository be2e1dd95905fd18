import Link from "next/link";
import { CallSeriesChart, OUTCOME_COLORS } from "@/components/overview/call-series-chart";
import { callsHref } from "@/components/overview/calls-href";
import { CategoryBars } from "@/components/overview/category-bars";
import { Empty, Panel, Stat } from "@/components/overview/overview-parts";
import { OverviewTables } from "@/components/overview/overview-tables";
import { TimeBars } from "@/components/overview/time-bars";
import { WindowPicker } from "@/components/overview/window-picker";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope } from "@/lib/access/principal";
import { studioDb } from "@/lib/api/studio-db";
import { listAgentsPresented } from "@/lib/services/agents/agents";
import { getOverview } from "@/lib/services/observability/overview";
import { listCatalog } from "@/lib/services/tools/tools";
import { requirePage } from "./page-access";
import { searchParam, type PageSearchParams } from "./search-param";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<PageSearchParams> };

export default async function OverviewPage({ searchParams }: Props) {
  // The layout checks too, but a page can be rendered without its layout (an RSC navigation).
  const principal = await requirePage("/");
  const db = studioDb();
  const tools = await listCatalog(db);
  const agents = await listAgentsPresented(db);
  const dropped = tools.filter((t) => t.status === "dropped").length;
  const catalog = (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-3 gap-4">
        <Stat label="Tools in the catalog" value={tools.length} href="/tools" />
        <Stat label="Dropped tools" value={dropped} href="/tools" />
        <Stat label="Agents" value={agents.length} href="/agents" />
      </dl>
      {agents.length === 0 ? (
        <p className="text-zinc-500">No agents yet: create one with PUT /v1/agents/:id or in insika.config.ts.</p>
      ) : (
        <ul className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
          {agents.map((a) => (
            <li key={a.id}>
              <Link className="font-medium underline" href={`/agents/${encodeURIComponent(a.id)}`}>
                {a.name}
              </Link>{" "}
              <span className="text-zinc-500">
                ({a.model.provider}: {a.model.model})
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
  // Calls and turns are trace data: a key without traces:read sees the catalog only.
  if (!hasAnyScope(principal, ["traces:read"])) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeader title="Overview" description="Calls and turns need a key with traces:read." />
        {catalog}
      </div>
    );
  }
  const o = await getOverview(db, {
    window: searchParam(await searchParams, "window"),
    tenant: principal.tenant ?? undefined,
  });
  const { window: w, totals } = o;
  const rate = (n: number, of: number) => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);
  const windowLink = { since: w.since };
  const slowest = [...o.tools].sort((a, b) => b.p95 - a.p95).slice(0, 8);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Overview"
        description={`The last ${w.label} (UTC buckets). Click any bar or row for the calls behind it.`}
        actions={<WindowPicker current={w.key} base="/" />}
      />
      <dl className="grid grid-cols-2 gap-4 md:grid-cols-5">
        <Stat label="Turns" value={totals.turns} href="/sessions" />
        <Stat label="Failed turns" value={totals.failedTurns} note={rate(totals.failedTurns, totals.turns)} />
        <Stat label="Tool calls" value={totals.calls} href={callsHref(windowLink)} />
        <Stat
          label="Failed calls"
          value={totals.errors}
          note={rate(totals.errors, totals.calls)}
          href={callsHref({ ...windowLink, outcome: "error" })}
        />
        <Stat
          label="Blocked by egress"
          value={totals.blocked}
          note={rate(totals.blocked, totals.calls)}
          href={callsHref({ ...windowLink, outcome: "blocked" })}
        />
      </dl>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Tool calls over time">
          <CallSeriesChart testId="calls-chart" points={o.calls} bucketMs={w.bucketMs} />
        </Panel>
        <Panel title="Turns over time">
          <TimeBars
            testId="turns-chart"
            data={o.turns.map((p) => ({ ...p }))}
            bucketMs={w.bucketMs}
            series={[
              { key: "completed", label: "completed / halted", color: OUTCOME_COLORS.ok },
              { key: "failed", label: "failed", color: OUTCOME_COLORS.blocked },
              { key: "other", label: "running / waiting", color: "#a1a1aa" },
            ]}
            hrefs={{
              completed: o.turns.map((p) => callsHref({ since: p.at, until: p.at + w.bucketMs })),
              failed: o.turns.map((p) => callsHref({ since: p.at, until: p.at + w.bucketMs })),
              other: o.turns.map((p) => callsHref({ since: p.at, until: p.at + w.bucketMs })),
            }}
          />
        </Panel>
        <Panel title="Slowest tools (p50 / p95, ms)">
          {slowest.length === 0 ? (
            <Empty />
          ) : (
            <CategoryBars
              testId="latency-chart"
              data={slowest.map((t) => ({ tool: t.tool, p50: t.p50, p95: t.p95 }))}
              category="tool"
              unit=" ms"
              bars={[
                { key: "p50", label: "p50", color: "#6366f1" },
                { key: "p95", label: "p95", color: "#a855f7" },
              ]}
              hrefs={slowest.map((t) => callsHref({ ...windowLink, tool: t.tool }))}
            />
          )}
        </Panel>
        <Panel title="Token usage per agent">
          {o.agents.length === 0 ? (
            <Empty />
          ) : (
            <CategoryBars
              testId="tokens-chart"
              data={o.agents.map((a) => ({ agent: a.agent, input: a.inputTokens, output: a.outputTokens }))}
              category="agent"
              bars={[
                { key: "input", label: "input tokens", color: "#0ea5e9" },
                { key: "output", label: "output tokens", color: "#14b8a6" },
              ]}
              hrefs={o.agents.map((a) => callsHref({ ...windowLink, agent: a.agent }))}
            />
          )}
        </Panel>
      </div>
      <OverviewTables overview={o} />
      {catalog}
    </div>
  );
}
