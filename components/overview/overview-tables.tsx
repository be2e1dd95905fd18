import Link from "next/link";
import type { Overview } from "@/lib/services/observability/overview";
import { callsHref } from "./calls-href";
import { Empty, Panel } from "./overview-parts";

const cell = "px-2 py-1";
const time = (at: number) => new Date(at).toISOString().replace("T", " ").slice(0, 19);

/** The Overview's lists: most failing tools, recent egress blocks, pending approvals; every row links on. */
export function OverviewTables({ overview }: { overview: Overview }) {
  const { window: w } = overview;
  const failing = overview.tools
    .filter((t) => t.errors > 0)
    .sort((a, b) => b.errorRate - a.errorRate || b.errors - a.errors)
    .slice(0, 8);
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Panel title="Most failing tools">
        {failing.length === 0 ? (
          <Empty>No failed calls in this window.</Empty>
        ) : (
          <table className="w-full text-sm" data-testid="failing-tools">
            <thead className="text-left text-zinc-500">
              <tr>
                <th className={cell}>Tool</th>
                <th className={`${cell} text-right`}>Failed</th>
                <th className={`${cell} text-right`}>Rate</th>
                <th className={`${cell} text-right`}>p95</th>
              </tr>
            </thead>
            <tbody>
              {failing.map((t) => (
                <tr key={t.tool} className="border-t border-zinc-100 dark:border-zinc-800">
                  <td className={`${cell} font-mono`}>
                    <Link className="underline" href={callsHref({ tool: t.tool, outcome: "error", since: w.since })}>
                      {t.tool}
                    </Link>
                  </td>
                  <td className={`${cell} text-right tabular-nums`}>{t.errors.toLocaleString("en")}</td>
                  <td className={`${cell} text-right tabular-nums`}>{(100 * t.errorRate).toFixed(1)}%</td>
                  <td className={`${cell} text-right tabular-nums`}>{t.p95} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Panel>
      <Panel title="Recent egress blocks">
        {overview.blocks.length === 0 ? (
          <Empty>The egress guard refused nothing in this window.</Empty>
        ) : (
          <ul className="flex flex-col gap-2 text-sm" data-testid="recent-blocks">
            {overview.blocks.map((b) => (
              <li key={`${b.turnId}/${b.callId}`}>
                <Link
                  className="font-mono underline"
                  href={`/sessions/${encodeURIComponent(b.sessionId)}?turn=${encodeURIComponent(b.turnId)}&call=${encodeURIComponent(b.callId)}`}
                >
                  {b.tool}
                </Link>{" "}
                <span className="rounded bg-red-50 px-1 font-mono text-xs text-red-800 dark:bg-red-950 dark:text-red-200">
                  {b.rule ?? "?"}
                </span>
                <div className="text-xs text-zinc-500">{time(b.startedAt)} UTC</div>
              </li>
            ))}
          </ul>
        )}
        <Link className="mt-2 block text-sm underline" href={callsHref({ outcome: "blocked", since: w.since })}>
          All blocked calls
        </Link>
      </Panel>
      <Panel title={`Pending approvals (${overview.pendingApprovals})`}>
        {overview.approvals.length === 0 ? (
          <Empty>Nothing waits for a decision.</Empty>
        ) : (
          <ul className="flex flex-col gap-2 text-sm" data-testid="pending-approvals">
            {overview.approvals.map((a) => (
              <li key={a.id}>
                <Link className="font-mono underline" href="/approvals">
                  {a.tool}
                </Link>{" "}
                <Link
                  className="text-xs text-zinc-500 underline"
                  href={`/sessions/${encodeURIComponent(a.sessionId)}?call=${encodeURIComponent(a.callId)}`}
                >
                  its call
                </Link>
                <div className="text-xs text-zinc-500">waiting since {time(a.createdAt)} UTC</div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
