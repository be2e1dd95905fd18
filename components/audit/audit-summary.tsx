/**
 * An audit entry's summary, readable: each field on its line, lists (created, updated,
 * changed fields…) as comma lists, a nested value as compact JSON. Never raw markup: the
 * summary is data that came from a write.
 */
const MAX = 400;

function show(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value))
    return value.length === 0 ? "none" : value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const clip = (text: string) => (text.length > MAX ? `${text.slice(0, MAX)}…` : text);

export function AuditSummary({ summary }: { summary: unknown }) {
  if (summary === null || summary === undefined) return <span className="text-zinc-500">—</span>;
  if (typeof summary !== "object" || Array.isArray(summary))
    return <span className="break-words">{clip(show(summary))}</span>;
  const fields = Object.entries(summary as Record<string, unknown>);
  if (fields.length === 0) return <span className="text-zinc-500">—</span>;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-2 text-xs">
      {fields.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-zinc-500">{k.replaceAll("_", " ")}</dt>
          <dd className="min-w-0 break-words font-mono">{clip(show(v))}</dd>
        </div>
      ))}
    </dl>
  );
}
