import Link from "next/link";

export const TOOL_TABS = [
  { id: "definition", label: "Definition" },
  { id: "try", label: "Try it" },
  { id: "history", label: "History" },
  { id: "agents", label: "Agents" },
] as const;

export type ToolTab = (typeof TOOL_TABS)[number]["id"];

/** The tool page's sections as links (deep-linkable, no client state). */
export function ToolTabs({ name, current, tabs }: { name: string; current: ToolTab; tabs: ToolTab[] }) {
  return (
    <nav
      aria-label="Tool sections"
      className="flex gap-1 overflow-x-auto border-b border-zinc-200 dark:border-zinc-800"
    >
      {TOOL_TABS.filter((t) => tabs.includes(t.id)).map((t) => (
        <Link
          key={t.id}
          href={`/tools/${name}?tab=${t.id}`}
          aria-current={t.id === current ? "page" : undefined}
          className="-mb-px whitespace-nowrap border-b-2 border-transparent px-3 py-2 text-sm hover:border-zinc-300 aria-[current=page]:border-zinc-900 aria-[current=page]:font-medium dark:aria-[current=page]:border-zinc-100"
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
