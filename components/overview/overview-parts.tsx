import Link from "next/link";
import type { ReactNode } from "react";

/** A titled box on the Overview. */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 className="mb-2 text-sm font-medium text-zinc-600 dark:text-zinc-400">{title}</h2>
      {children}
    </section>
  );
}

export function Empty({ children = "No calls in this window." }: { children?: ReactNode }) {
  return <p className="py-6 text-center text-sm text-zinc-500">{children}</p>;
}

/** One number (inside a <dl>), linking to what it counts when `href` is given. */
export function Stat({ label, value, note, href }: { label: string; value: number; note?: string; href?: string }) {
  const number = <span data-stat-value={value}>{value.toLocaleString("en")}</span>;
  return (
    <div className="rounded border border-zinc-200 p-4 dark:border-zinc-800">
      <dt className="text-sm text-zinc-500">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">
        {href ? (
          <Link href={href} className="hover:underline">
            {number}
          </Link>
        ) : (
          number
        )}
        {note ? <span className="ml-2 text-sm font-normal text-zinc-500">{note}</span> : null}
      </dd>
    </div>
  );
}
