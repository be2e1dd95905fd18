import Link from "next/link";
import { AuditFilters, type AuditFilterValues } from "@/components/audit/audit-filters";
import { AuditTable } from "@/components/audit/audit-table";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { AUDIT_ACTIONS, auditQuery, listAuditForPage } from "@/lib/services/audit/list-audit";
import { listKeys } from "@/lib/services/keys/api-keys";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v.trim() : "");

export default async function AuditPage({ searchParams }: Props) {
  const principal = await requirePage("/audit");
  const raw = await searchParams;
  const values: AuditFilterValues = {
    target: one(raw.target),
    actor: one(raw.actor),
    action: one(raw.action),
    since: one(raw.since),
  };
  const before = one(raw.before);
  const parsed = auditQuery.safeParse({
    ...(values.target ? { target: values.target } : {}),
    ...(values.actor ? { actor: values.actor } : {}),
    ...(values.action ? { action: values.action } : {}),
    // The form's day is a UTC day; a full ISO instant (from a link) is taken as it is.
    ...(values.since ? { since: DAY.test(values.since) ? `${values.since}T00:00:00Z` : values.since } : {}),
    ...(before ? { before } : {}),
    limit: String(PAGE_SIZE),
  });
  const db = studioDb();
  const actors = (await listKeys(db, principal)).map((k) => ({ id: k.id, name: k.name }));
  const page = parsed.success ? await listAuditForPage(db, principal, parsed.data) : null;
  const older = page?.next_before
    ? `/audit?${new URLSearchParams({ ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)), before: String(page.next_before) })}`
    : null;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Audit log"
        description={
          <>
            Every write through the product: who (key), what, when, from where. Append-only. Also{" "}
            <code>GET /v1/audit</code>.
          </>
        }
      />
      <AuditFilters values={values} actions={AUDIT_ACTIONS} actors={actors} />
      {!parsed.success ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          These filters are not valid:{" "}
          {parsed.error.issues.map((i) => `${i.path.join(".") || "filter"}: ${i.message}`).join("; ")}
        </p>
      ) : page && page.entries.length === 0 ? (
        <EmptyState title="No entries">{before ? "Nothing older." : "Nothing matches these filters yet."}</EmptyState>
      ) : page ? (
        <AuditTable entries={page.entries} />
      ) : null}
      <div className="flex gap-2">
        {before ? (
          <Link
            className={buttonClass("secondary")}
            href={`/audit?${new URLSearchParams(Object.entries(values).filter(([, v]) => v))}`}
          >
            Newest
          </Link>
        ) : null}
        {older ? (
          <Link className={buttonClass("secondary")} href={older}>
            Older
          </Link>
        ) : null}
      </div>
    </div>
  );
}
