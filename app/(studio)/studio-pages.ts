/**
 * The Studio's pages and the scopes that open each one: the one place the nav, the page
 * checks and the "cannot open" page read. Admin opens every page (hasAnyScope).
 */
import { hasAnyScope, type Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { READ_APPROVALS, READ_CATALOG } from "@/lib/access/scopes";

export interface StudioPage {
  href: string;
  label: string;
  scopes: readonly Scope[];
  /** It spans every tenant (keys, audit log): a key pinned to a tenant may not open it. */
  everyTenant?: true;
}

export const STUDIO_PAGES: readonly StudioPage[] = [
  { href: "/", label: "Overview", scopes: READ_CATALOG },
  { href: "/tools", label: "Tools", scopes: READ_CATALOG },
  { href: "/mcp", label: "MCP", scopes: READ_CATALOG },
  { href: "/openapi", label: "OpenAPI", scopes: READ_CATALOG },
  { href: "/agents", label: "Agents", scopes: READ_CATALOG },
  { href: "/playground", label: "Playground", scopes: ["turns:run"] },
  { href: "/approvals", label: "Approvals", scopes: READ_APPROVALS },
  { href: "/sessions", label: "Sessions", scopes: ["traces:read"] },
  { href: "/calls", label: "Calls", scopes: ["traces:read"] },
  { href: "/doctor", label: "Doctor", scopes: ["traces:read"] },
  { href: "/keys", label: "Keys", scopes: ["admin"], everyTenant: true },
  { href: "/audit", label: "Audit", scopes: ["admin"], everyTenant: true },
];

/** The page a path belongs to (its longest matching href), if any. */
export function studioPageOf(path: string): StudioPage | undefined {
  return STUDIO_PAGES.filter((p) =>
    p.href === "/" ? path === "/" : path === p.href || path.startsWith(`${p.href}/`),
  ).at(0);
}

/** True when this key may open `page`: one of its scopes, and no tenant pin on a page of every tenant. */
export function mayOpen(principal: Principal, page: StudioPage): boolean {
  return hasAnyScope(principal, page.scopes) && (!page.everyTenant || principal.tenant === null);
}

/** The first page this key may open: where a sign-in or a refused page lands. */
export function homeOf(principal: Principal): string | undefined {
  return STUDIO_PAGES.find((p) => mayOpen(principal, p))?.href;
}

/**
 * Why this key may not change what `scopes` guard, as the one line an editor shows; null when
 * it may. e.g. "This key can read, not change: it has traces:read; editing tools needs tools:write".
 */
export function readOnlyReason(principal: Principal, scopes: readonly Scope[], what: string): string | null {
  if (hasAnyScope(principal, scopes)) return null;
  return `This key can read, not change: it has ${principal.scopes.join(", ") || "no scope"}; ${what} needs ${scopes.join(" or ")}.`;
}
