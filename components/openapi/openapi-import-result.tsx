import type { OpenApiOutcome } from "./use-openapi-import";

/** What an import did (counts, operations left out, secrets to provision), or why nothing was written. */
export function OpenApiImportResult({ outcome }: { outcome: OpenApiOutcome }) {
  if (!outcome.ok) {
    const details = (outcome.details ?? {}) as { rule?: string; hint?: string };
    return (
      <div
        role="alert"
        data-testid="openapi-failure"
        data-code={outcome.code}
        className="flex flex-col gap-1 rounded border-l-4 border-red-400 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      >
        <p className="font-semibold">The import was refused: nothing was written</p>
        <p className="break-words">{outcome.error}</p>
        {details.hint ? <p className="break-words">To allow it: {details.hint}</p> : null}
      </div>
    );
  }
  const r = outcome.result;
  const changed = r.updated.length - r.unchanged.length;
  const stats: [string, number][] = [
    ["Created", r.created.length],
    ["Updated", changed],
    ["Unchanged", r.unchanged.length],
    ["Removed", r.removed.length],
    ["Errors", r.errors.length],
  ];
  return (
    <section
      data-testid="openapi-summary"
      className="flex flex-col gap-3 rounded border border-emerald-300 bg-emerald-50/50 p-4 dark:border-emerald-900 dark:bg-emerald-950/30"
    >
      <h2 className="font-semibold">
        Imported <span className="font-mono">{r.group}</span> from {r.document.title || "the document"} (
        {r.document.version}, {r.document.operations} operations)
      </h2>
      <dl className="grid grid-cols-5 gap-2">
        {stats.map(([label, n]) => (
          <div
            key={label}
            data-stat={label.toLowerCase()}
            data-count={n}
            className="rounded border border-zinc-200 bg-white p-2 dark:border-zinc-800 dark:bg-zinc-950"
          >
            <dt className="text-xs text-zinc-500">{label}</dt>
            <dd className="text-xl font-semibold">{n}</dd>
          </div>
        ))}
      </dl>
      {r.secrets.length > 0 ? (
        <div className="text-sm">
          <h3 className="font-medium">Secrets these tools use</h3>
          <ul className="flex flex-col gap-0.5">
            {r.secrets.map((s) => (
              <li key={s.name}>
                <code className="font-mono">{s.name}</code> ({s.scheme}, header{" "}
                <code className="font-mono">{s.header}</code>):{" "}
                {s.provisioned ? (
                  "provisioned"
                ) : (
                  <>
                    not provisioned: set <code className="font-mono">INSIKA_SECRET_{s.name.toUpperCase()}</code>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {r.dialect_problems.length > 0 ? (
        <div className="text-sm" data-testid="openapi-dialect-problems">
          <h3 className="font-medium text-amber-900 dark:text-amber-300">
            What agents&apos; providers would reject ({r.dialect_problems.length})
          </h3>
          <ul className="flex max-h-48 flex-col gap-0.5 overflow-auto">
            {r.dialect_problems.slice(0, 100).map((p, i) => (
              <li key={i} className="break-words">
                <span className="font-mono">{p.agent}</span> / <span className="font-mono">{p.tool}</span>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {r.errors.length > 0 ? (
        <div className="text-sm">
          <h3 className="font-medium text-red-800 dark:text-red-300">Operations that were not imported</h3>
          <ul className="flex max-h-72 flex-col gap-1 overflow-auto">
            {r.errors.map((e) => (
              <li key={`${e.operation}:${e.tool}`} className="break-words">
                <span className="font-mono">{e.operation}</span>
                {e.tool ? (
                  <>
                    {" "}
                    (<span className="font-mono">{e.tool}</span>)
                  </>
                ) : null}
                : {e.error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
