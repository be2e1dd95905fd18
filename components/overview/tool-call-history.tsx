import Link from "next/link";
import type { getToolCallHistory } from "@/lib/services/observability/overview";
import { CallSeriesChart } from "./call-series-chart";
import { callsHref } from "./calls-href";
import { WindowPicker } from "./window-picker";

/** A tool's own call history on its page: calls over the window by outcome, with p50/p95. */
export function ToolCallHistory({
  tool,
  history,
}: {
  tool: string;
  history: Awaited<ReturnType<typeof getToolCallHistory>>;
}) {
  const { window: w, stat } = history;
  return (
    <section className="rounded border border-zinc-200 p-4 dark:border-zinc-800" aria-label="Call history">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-medium text-zinc-600 dark:text-zinc-400">
          Calls in the last {w.label}
          {stat
            ? `: ${stat.calls.toLocaleString("en")} (${stat.errors} failed, ${stat.blocked} blocked), p50 ${stat.p50} ms, p95 ${stat.p95} ms`
            : ": none"}
          {" · "}
          <Link className="underline" href={callsHref({ tool, since: w.since })}>
            list them
          </Link>
        </h2>
        <WindowPicker current={w.key} base={`/tools/${encodeURIComponent(tool)}?`} />
      </div>
      <CallSeriesChart testId="tool-calls-chart" points={history.calls} bucketMs={w.bucketMs} tool={tool} />
    </section>
  );
}
