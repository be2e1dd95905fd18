import Link from "next/link";
import { requireStudioSession } from "@/lib/api/studio-auth";

export const dynamic = "force-dynamic";

const NAV = [
  { href: "/", label: "Overview" },
  { href: "/tools", label: "Tools" },
  { href: "/agents", label: "Agents" },
];

export default async function StudioLayout({ children }: { children: React.ReactNode }) {
  await requireStudioSession();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center gap-6 border-b border-zinc-200 px-6 py-3 dark:border-zinc-800">
        <span className="font-semibold">Insika Studio</span>
        <nav aria-label="Main" className="flex gap-4 text-sm">
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} className="hover:underline">
              {item.label}
            </Link>
          ))}
        </nav>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 p-6">{children}</main>
    </div>
  );
}
