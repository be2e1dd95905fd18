import { pretty } from "@/components/trace/call-record";

/** A code tool: shipped in the build, so read-only here (allow or deny it per agent). */
export function CodeToolView({ detail }: { detail: Record<string, unknown> }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="rounded border border-violet-200 bg-violet-50 p-3 text-violet-900 dark:border-violet-900 dark:bg-violet-950 dark:text-violet-200">
        A code tool ships in the deployment image: it cannot be edited here. Allow or deny it per agent (the Agents tab).
      </p>
      <dl className="grid gap-2 sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium">Description</dt>
        <dd>{String(detail.description ?? "")}</dd>
        <dt className="font-medium">Group</dt>
        <dd>{detail.group ? String(detail.group) : "none"}</dd>
        <dt className="font-medium">Side effect</dt>
        <dd>{detail.side_effect ? "yes (never re-run on resume)" : "no"}</dd>
        <dt className="font-medium">Parameters</dt>
        <dd>
          <pre className="overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900">{pretty(detail.parameters)}</pre>
        </dd>
      </dl>
    </div>
  );
}
