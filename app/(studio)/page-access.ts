/**
 * Page-level scope checks. Every page calls `requirePage()` itself: a page can be rendered
 * without its layout (an RSC navigation), so the layout's check alone would not hold.
 */
import { redirect } from "next/navigation";
import { hasAnyScope, type Principal } from "@/lib/access/principal";
import type { Scope } from "@/lib/access/scopes";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { homeOf, mayOpen, studioPageOf } from "./studio-pages";

/**
 * The session's principal when it may open the page at `path` (or, with `scopes`, a page
 * needing those); otherwise a redirect: to the playground for a key that only runs turns,
 * else to /no-access, which says what the page needs.
 */
export async function requirePage(path: string, scopes?: readonly Scope[]): Promise<Principal> {
  const principal = await requireStudioSession();
  const page = studioPageOf(path);
  if (scopes ? hasAnyScope(principal, scopes) : page ? mayOpen(principal, page) : hasAnyScope(principal, ["admin"]))
    return principal;
  if (homeOf(principal) === "/playground") redirect("/playground");
  redirect(`/no-access?page=${encodeURIComponent(path)}`);
}
