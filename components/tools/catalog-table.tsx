"use client";
import Link from "next/link";
import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { Badge, KIND_TONE } from "@/components/ui/badge";
import { controlClass, inputClass } from "@/components/ui/field";
import type { CatalogRow } from "@/lib/services/tools/tool-page";
import { filterCatalog, type CatalogQuery } from "./catalog-filter";
import { useWindowed } from "./use-windowed";

const ROW = 56;

/** The catalog: filter and search in the browser over a light array; only the rows in view are rendered. */
export function CatalogTable({ rows }: { rows: CatalogRow[] }) {
  const [query, setQuery] = useState<CatalogQuery>({ text: "", kind: "", status: "", group: "" });
  const deferred = useDeferredValue(query);
  const shown = useMemo(() => filterCatalog(rows, deferred), [rows, deferred]);
  const groups = useMemo(() => [...new Set(rows.map((r) => r.group ?? ""))].filter(Boolean).sort(), [rows]);
  const win = useWindowed(shown.length, ROW);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "/" && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement)) {
        e.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const select = (key: "kind" | "status" | "group", label: string, options: [string, string][]) => (
    <select
      aria-label={label}
      className={controlClass}
      value={query[key]}
      onChange={(e) => setQuery((q) => ({ ...q, [key]: e.target.value }))}
    >
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  );

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={search}
          type="search"
          aria-label="Search tools"
          placeholder="Search name, description, group, tags  ( / )"
          className={`${inputClass} min-w-0 flex-1 sm:max-w-md`}
          value={query.text}
          onChange={(e) => setQuery((q) => ({ ...q, text: e.target.value }))}
        />
        {select("kind", "Kind", [
          ["", "All kinds"],
          ["code", "code"],
          ["data", "data"],
          ["mcp", "mcp"],
        ])}
        {select("status", "Status", [
          ["", "Any status"],
          ["ok", "ok"],
          ["dropped", "dropped"],
        ])}
        {select("group", "Group", [["", "All groups"], ...groups.map((g): [string, string] => [g, g])])}
        <span role="status" data-testid="catalog-count" className="text-sm text-zinc-500">
          {shown.length} of {rows.length}
        </span>
      </div>
      <div
        ref={win.ref}
        onScroll={win.onScroll}
        role="list"
        aria-label="Tools"
        className="h-[min(70vh,44rem)] overflow-y-auto rounded border border-zinc-200 dark:border-zinc-800"
      >
        {shown.length === 0 ? (
          <p className="p-6 text-center text-sm text-zinc-500">
            No tool matches these filters. Clear the search or pick another kind, status or group.
          </p>
        ) : null}
        <div style={{ height: win.padTop }} />
        {shown.slice(win.start, win.end).map((r) => (
          <CatalogRowView key={r.name} row={r} />
        ))}
        <div style={{ height: win.padBottom }} />
      </div>
    </div>
  );
}

function CatalogRowView({ row }: { row: CatalogRow }) {
  const dropped = row.status === "dropped";
  return (
    <div
      role="listitem"
      data-tool={row.name}
      style={{ height: ROW }}
      className="border-b border-zinc-100 last:border-0 dark:border-zinc-900"
    >
      <Link
        href={`/tools/${row.name}`}
        className="flex h-full flex-col justify-center gap-0.5 px-3 hover:bg-zinc-50 focus-visible:bg-sky-50 focus-visible:outline-none dark:hover:bg-zinc-900 dark:focus-visible:bg-sky-950"
      >
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate font-mono text-sm font-medium">{row.name}</span>
          <Badge tone={KIND_TONE[row.kind]}>{row.kind}</Badge>
          {dropped ? <Badge tone="red">dropped</Badge> : null}
          {row.group ? <Badge>{row.group}</Badge> : null}
          <span className="hidden truncate text-xs text-zinc-500 sm:inline">
            {row.tags.map((t) => `#${t}`).join(" ")}
          </span>
        </span>
        <span
          className={`truncate text-xs ${dropped ? "text-red-700 dark:text-red-400" : "text-zinc-600 dark:text-zinc-400"}`}
        >
          {dropped
            ? `Dropped: ${row.problem}`
            : row.offered_when
              ? `System tool, offered ${row.offered_when}. ${row.description}`
              : row.description}
        </span>
      </Link>
    </div>
  );
}
