import Link from "next/link";
import { CallsTable } from "@/components/overview/calls-table";
import { callsHref } from "@/components/overview/calls-href";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getCallsPage } from "@/lib/services/observability/calls-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const when = (at: number) => new Date(at).toISOString().replace("T", " ").slice(0, 16);

export default async function CallsPage({ searchParams }: Props) {
  const principal = await requirePage("/calls");
  const query = await searchParams;
  const page = await getCallsPage(studioDb(), query, principal.tenant ?? undefined);
  const f = page.filter;
  const parts = [
    f.tool && `tool ${f.tool}`,
    f.agent && `agent ${f.agent}`,
    f.outcome && (f.outcome === "error" ? "failed" : f.outcome === "blocked" ? "blocked by egress" : "ok"),
    f.since !== undefined && `from ${when(f.since)}`,
    f.until !== undefined && `until ${when(f.until)}`,
  ].filter(Boolean);
  const { before: _before, ...rest } = f;
  const base = callsHref(rest);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Calls"
        description={
          <span data-testid="calls-filter">
            {parts.length
              ? `Tool calls: ${parts.join(", ")}${f.since !== undefined || f.until !== undefined ? " UTC" : ""}`
              : "Every tool call"}
            , newest first.
          </span>
        }
        actions={
          parts.length ? (
            <Link className={buttonClass("secondary")} href="/calls">
              Clear filters
            </Link>
          ) : null
        }
      />
      {page.problems.length > 0 ? (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {page.problems.join("; ")}
        </p>
      ) : page.calls.length === 0 ? (
        <EmptyState title="No calls match">Widen the window or clear a filter.</EmptyState>
      ) : (
        <CallsTable calls={page.calls} />
      )}
      {page.older ? (
        <Link className="text-sm underline" href={`${base}${base.includes("?") ? "&" : "?"}before=${page.older}`}>
          Older calls
        </Link>
      ) : null}
    </div>
  );
}
