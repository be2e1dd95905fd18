import Link from "next/link";
import type { ImportMcpResult } from "@/lib/services/mcp/import-mcp-server";

const STATS = [
  { key: "created", label: "Created", tone: "text-emerald-700 dark:text-emerald-400" },
  { key: "updated", label: "Updated", tone: "text-sky-700 dark:text-sky-400" },
  { key: "unchanged", label: "Unchanged", tone: "text-zinc-600 dark:text-zinc-400" },
  { key: "removed", label: "Removed", tone: "text-amber-800 dark:text-amber-300" },
  { key: "renamed", label: "Renamed", tone: "text-violet-700 dark:text-violet-300" },
  { key: "errors", label: "Errors", tone: "text-red-700 dark:text-red-400" },
] as const;

type StatKey = (typeof STATS)[number]["key"];

/** What an import did, per category; `updated` here means changed (the API's list also holds the unchanged). */
export function ImportSummary({ result }: { result: ImportMcpResult }) {
  const unchanged = new Set(result.unchanged);
  const names: Record<StatKey, string[]> = {
    created: result.created,
    updated: result.updated.filter((n) => !unchanged.has(n)),
    unchanged: result.unchanged,
    removed: result.removed,
    renamed: result.renamed.map((r) => r.tool),
    errors: result.errors.map((e) => e.tool),
  };
  const server = result.server ? `${result.server.name} ${result.server.version}` : "the server";
  // Every listed tool refused (and none kept): not a success, whatever the status code said.
  const nothing = result.created.length + result.updated.length === 0 && result.errors.length > 0;
  return (
    <section
      data-testid="mcp-summary"
      aria-labelledby="mcp-summary-title"
      className={`flex flex-col gap-3 rounded border p-4 ${nothing ? "border-amber-300 bg-amber-50/60 dark:border-amber-800 dark:bg-amber-950/30" : "border-emerald-300 bg-emerald-50/50 dark:border-emerald-900 dark:bg-emerald-950/30"}`}
    >
      <h2 id="mcp-summary-title" className="font-semibold">
        {nothing ? "No tool was imported into " : "Imported "}
        <span className="font-mono">{result.group}</span> from {server}
      </h2>
      <dl className="grid grid-cols-3 gap-2 sm:grid-cols-6">
        {STATS.map((s) => (
          <div
            key={s.key}
            data-stat={s.key}
            data-count={names[s.key].length}
            className="rounded border border-zinc-200 bg-white p-2 dark:border-zinc-800 dark:bg-zinc-950"
          >
            <dt className="text-xs text-zinc-500">{s.label}</dt>
            <dd
              className={`text-xl font-semibold ${names[s.key].length > 0 ? s.tone : "text-zinc-400 dark:text-zinc-600"}`}
            >
              {names[s.key].length}
            </dd>
          </div>
        ))}
      </dl>
      {result.errors.length > 0 ? (
        <div role="alert" className="flex flex-col gap-1 text-sm">
          <h3 className="font-medium text-red-800 dark:text-red-300">Tools that were not imported</h3>
          <ul className="flex flex-col gap-1">
            {result.errors.map((e) => (
              <li
                key={`${e.tool}:${e.mcp_tool}`}
                data-testid="mcp-import-error"
                className="break-words rounded bg-red-50 p-2 text-red-900 dark:bg-red-950/60 dark:text-red-200"
              >
                <span className="font-mono font-medium">{e.tool}</span>
                {e.mcp_tool !== e.tool ? (
                  <span className="font-mono text-xs"> (server name {e.mcp_tool})</span>
                ) : null}: {e.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.renamed.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm">
          {result.renamed.map((r) => (
            <li key={r.tool} className="break-words">
              <span className="font-mono">{r.mcp_tool}</span> is stored as <span className="font-mono">{r.tool}</span>:{" "}
              {r.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <NameList title="Created" names={names.created} />
      <NameList title="Updated" names={names.updated} />
      <NameList title="Removed (no longer listed by the server)" names={names.removed} link={false} />
    </section>
  );
}

function NameList({ title, names, link = true }: { title: string; names: string[]; link?: boolean }) {
  if (names.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer">
        {title}: {names.length} tool(s)
      </summary>
      <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 font-mono text-xs">
        {names.map((n) => (
          <li key={n}>
            {link ? (
              <Link className="underline" href={`/tools/${encodeURIComponent(n)}`}>
                {n}
              </Link>
            ) : (
              n
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
