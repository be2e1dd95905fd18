/**
 * What an agent's provider would reject in the tools it is offered (provider
 * dialects, docs/api.md): shown on the agent page (one line per tool) and in
 * the tool editor (one line per agent). Nothing is rendered when there is none.
 */
export interface DialectProblemRow {
  /** The tool (agent page) or the agent (tool page) the problem belongs to. */
  who: string;
  dialect: string;
  message: string;
}

export function DialectProblemList({ rows, title }: { rows: DialectProblemRow[]; title: string }) {
  if (rows.length === 0) return null;
  return (
    <section
      role="alert"
      data-testid="dialect-problems"
      className="flex flex-col gap-1 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <h2 className="font-semibold">{title}</h2>
      <ul className="flex max-h-60 flex-col gap-0.5 overflow-auto">
        {rows.map((r, i) => (
          <li key={`${r.who}:${i}`} className="break-words">
            <span className="font-mono">{r.who}</span> ({r.dialect}): {r.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
