/** What a turn of this agent will see: offered directly, found through tool_search, refused. */
export function OfferedSummary({
  offered,
  deferred,
  denied,
}: {
  offered: string[];
  deferred: string[];
  denied: string[];
}) {
  const list = (title: string, names: string[], empty: string, testId: string) => (
    <section aria-label={title} data-testid={testId} className="flex flex-col gap-1">
      <h3 className="text-sm font-semibold">
        {title} <span className="font-normal text-zinc-500">({names.length})</span>
      </h3>
      {names.length === 0 ? (
        <p className="text-xs text-zinc-500">{empty}</p>
      ) : (
        <ul className="flex max-h-48 flex-col overflow-y-auto font-mono text-xs">
          {names.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </section>
  );
  return (
    <aside className="flex flex-col gap-4 self-start rounded border border-zinc-200 p-3 lg:sticky lg:top-16 dark:border-zinc-800">
      {list(
        "Offered to the model",
        offered,
        "Nothing: allow a tool or a group (or turn on All tools).",
        "offered-list",
      )}
      {list("Deferred (via tool_search)", deferred, "None.", "deferred-list")}
      {list("Denied", denied, "None.", "denied-list")}
    </aside>
  );
}
