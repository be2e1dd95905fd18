/**
 * Page-level scope checks. Every page calls `requirePage()` itself: a page can be rendered
 * without its layout (an RSC navigation), so the layout's check alone would not hold.
 */
import { redirect } from "next/navigation";
import { hasAnyScope, type Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { STUDIO_PAGES, studioPageOf } from "./studio-pages";

/** The first page this key may open: where a sign-in or a refused page lands. */
export function homeOf(principal: Principal): string | undefined {
  return STUDIO_PAGES.find((p) => hasAnyScope(principal, p.scopes))?.href;
}

/**
 * The session's principal when it may open the page at `path` (or, with `scopes`, a page
 * needing those); otherwise a redirect: to the playground for a key that only runs turns,
 * else to /no-access, which says what the page needs.
 */
export async function requirePage(path: string, scopes?: readonly Scope[]): Promise<Principal> {
  const principal = await requireStudioSession();
  const needed = scopes ?? studioPageOf(path)?.scopes ?? ["admin"];
  if (hasAnyScope(principal, needed)) return principal;
  if (homeOf(principal) === "/playground") redirect("/playground");
  redirect(`/no-access?page=${encodeURIComponent(path)}`);
}

/**
 * Why this key may not change what `scopes` guard, as the one line an editor shows; null when
 * it may. e.g. "This key can read, not change: it has traces:read; editing tools needs tools:write".
 */
export function readOnlyReason(principal: Principal, scopes: readonly Scope[], what: string): string | null {
  if (hasAnyScope(principal, scopes)) return null;
  return `This key can read, not change: it has ${principal.scopes.join(", ") || "no scope"}; ${what} needs ${scopes.join(" or ")}.`;
}
