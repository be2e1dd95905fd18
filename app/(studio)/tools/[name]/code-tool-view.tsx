import { pretty } from "@/components/trace/call-record";

/** A code tool (a system tool too): shipped in the build, so read-only here. */
export function CodeToolView({ detail }: { detail: Record<string, unknown> }) {
  const offeredWhen = typeof detail.offered_when === "string" ? detail.offered_when : null;
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="rounded border border-violet-200 bg-violet-50 p-3 text-violet-900 dark:border-violet-900 dark:bg-violet-950 dark:text-violet-200">
        {offeredWhen
          ? `A system tool ships in the deployment image and cannot be edited here. A turn is offered it ${offeredWhen}; tools_deny still removes it (the Agents tab). No data tool may take its name.`
          : "A code tool ships in the deployment image: it cannot be edited here. Allow or deny it per agent (the Agents tab)."}
      </p>
      <dl className="grid gap-2 sm:grid-cols-[10rem_1fr]">
        {offeredWhen ? (
          <>
            <dt className="font-medium">Offered</dt>
            <dd data-testid="offered-when">{offeredWhen}</dd>
          </>
        ) : null}
        <dt className="font-medium">Description</dt>
        <dd>{String(detail.description ?? "")}</dd>
        <dt className="font-medium">Group</dt>
        <dd>{detail.group ? String(detail.group) : "none"}</dd>
        <dt className="font-medium">Side effect</dt>
        <dd>{detail.side_effect ? "yes (never re-run on resume)" : "no"}</dd>
        <dt className="font-medium">Parameters</dt>
        <dd>
          <pre className="overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900">
            {pretty(detail.parameters)}
          </pre>
        </dd>
      </dl>
    </div>
  );
}
