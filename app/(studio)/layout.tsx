import { requireStudioSession } from "@/lib/api/studio-auth";
import { NavLinks } from "@/components/ui/nav-links";
import { signOutAction } from "./actions";
import { STUDIO_PAGES, mayOpen } from "./studio-pages";

export const dynamic = "force-dynamic";

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  const principal = await requireStudioSession();
  // Only the pages this key may open (each page checks again: it can render without this layout).
  const nav = STUDIO_PAGES.filter((p) => mayOpen(principal, p)).map(({ href, label }) => ({ href, label }));
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:p-2 dark:focus:bg-zinc-900"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-20 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
        <div className="mx-auto flex w-full max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 sm:flex-nowrap sm:px-6">
          <span className="shrink-0 font-semibold">Insika Studio</span>
          <div className="order-last w-full min-w-0 sm:order-none sm:w-auto sm:flex-1">
            <NavLinks items={nav} />
          </div>
          <span
            className="hidden max-w-48 truncate text-xs text-zinc-500 md:inline"
            data-testid="signed-in-key"
            title={`${principal.keyName} (${principal.keyId}): ${principal.scopes.join(", ")}`}
          >
            {principal.keyName} · {principal.scopes.join(", ")}
          </span>
          <form action={signOutAction} className="ml-auto sm:ml-0">
            <button
              type="submit"
              className="whitespace-nowrap text-sm text-zinc-600 hover:underline dark:text-zinc-400"
            >
              Sign out
            </button>
          </form>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        {children}
      </main>
    </div>
  );
}
