import Link from "next/link";
import { CatalogTable } from "@/components/tools/catalog-table";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope } from "@/lib/access/principal";
import { listCatalogRows } from "@/lib/services/tools/tool-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

export default async function ToolsPage() {
  const principal = await requirePage("/tools");
  const rows = await listCatalogRows(studioDb());
  const dropped = rows.filter((r) => r.status === "dropped").length;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Tools"
        description={
          <>
            Every tool in the catalog. Code tools ship in the build (allow/deny only); data and MCP tools are editable.
            {dropped > 0 ? (
              <span className="text-red-700 dark:text-red-400">
                {" "}
                {dropped} stored tool(s) no longer validate and are dropped.
              </span>
            ) : null}
          </>
        }
        actions={
          hasAnyScope(principal, ["tools:write"]) ? (
            <Link href="/tools/new" className={buttonClass()}>
              New data tool
            </Link>
          ) : null
        }
      />
      {rows.length === 0 ? (
        <EmptyState title="The catalog is empty">
          Create a data tool with{" "}
          <Link className="underline" href="/tools/new">
            New data tool
          </Link>
          , or POST a manifest to <code>/v1/tools/manifest</code>.
        </EmptyState>
      ) : (
        <CatalogTable rows={rows} />
      )}
    </div>
  );
}
