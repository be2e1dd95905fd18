import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope } from "@/lib/access/principal";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { homeOf, mayOpen, studioPageOf } from "../studio-pages";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ page?: string }> };

/** Where a page this key may not open sends it: which page, what it needs, what the key has. */
export default async function NoAccessPage({ searchParams }: Props) {
  const principal = await requireStudioSession();
  const { page } = await searchParams;
  // Only a known page is named (the query is the browser's): anything else reads as "that page".
  const known = typeof page === "string" ? studioPageOf(page) : undefined;
  const home = homeOf(principal);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="This key cannot open that page" />
      <p role="alert" className="text-sm">
        {known?.everyTenant && principal.tenant !== null && hasAnyScope(principal, known.scopes) ? (
          <>
            The {known.label} page spans every tenant, and this key is pinned to tenant {principal.tenant}; it needs a
            key without a tenant
          </>
        ) : known ? (
          <>
            The {known.label} page needs scope {known.scopes.join(" or ")}
          </>
        ) : (
          <>That page needs a scope this key lacks</>
        )}
        ; the key <span className="font-medium">{principal.keyName}</span> has{" "}
        {principal.scopes.join(", ") || "no scope"}.
        {known && mayOpen(principal, known) ? " It may open it now: reload." : ""}
      </p>
      {home ? (
        <p className="text-sm">
          <Link className="underline" href={home}>
            Go to a page this key may open
          </Link>
        </p>
      ) : (
        <p className="text-sm text-zinc-500">This key opens no Studio page: sign in with another key.</p>
      )}
    </div>
  );
}
