import Link from "next/link";
import { WINDOWS, type WindowKey } from "@/lib/observability/overview-window";

/** The 1 h / 24 h / 7 d switch: plain links, so a window is a URL (shareable, back button). */
export function WindowPicker({ current, base }: { current: WindowKey; base: string }) {
  return (
    <nav aria-label="Time window" className="flex gap-1 rounded border border-zinc-200 p-0.5 dark:border-zinc-800">
      {(Object.keys(WINDOWS) as WindowKey[]).map((key) => (
        <Link
          key={key}
          href={`${base}${base.endsWith("?") ? "" : base.includes("?") ? "&" : "?"}window=${key}`}
          aria-current={key === current ? "page" : undefined}
          className={`rounded px-2 py-1 text-sm ${key === current ? "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"}`}
        >
          {WINDOWS[key].label}
        </Link>
      ))}
    </nav>
  );
}
