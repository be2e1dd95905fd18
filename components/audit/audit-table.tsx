import { Badge } from "@/components/ui/badge";
import { AuditSummary } from "./audit-summary";

export interface AuditEntryView {
  id: number;
  at: string;
  actor: { key_id: string; name: string };
  source: string;
  action: string;
  target: string;
  summary: unknown;
}

const SOURCE_TONE = { api: "blue", studio: "violet", cli: "teal", config: "amber" } as const;

/** Audit entries, newest first: when, who (key name and id), from where, what. */
export function AuditTable({ entries }: { entries: AuditEntryView[] }) {
  return (
    <div className="overflow-x-auto rounded border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-sm">
        <thead className="bg-zinc-50 text-left text-xs text-zinc-500 dark:bg-zinc-900">
          <tr>
            <th className="px-3 py-2 font-medium">When (UTC)</th>
            <th className="px-3 py-2 font-medium">Who</th>
            <th className="px-3 py-2 font-medium">From</th>
            <th className="px-3 py-2 font-medium">Action</th>
            <th className="px-3 py-2 font-medium">Target</th>
            <th className="px-3 py-2 font-medium">Change</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr
              key={e.id}
              data-audit={e.id}
              data-action={e.action}
              data-target={e.target}
              className="border-t border-zinc-100 align-top dark:border-zinc-900"
            >
              <td className="whitespace-nowrap px-3 py-2 text-xs" title={e.at}>
                {e.at.replace("T", " ").slice(0, 19)}
              </td>
              <td className="px-3 py-2">
                <span className="font-medium">{e.actor.name}</span>
                <div className="font-mono text-xs text-zinc-500">{e.actor.key_id}</div>
              </td>
              <td className="px-3 py-2">
                <Badge tone={SOURCE_TONE[e.source as keyof typeof SOURCE_TONE] ?? "neutral"}>{e.source}</Badge>
              </td>
              <td className="px-3 py-2 font-mono text-xs">{e.action}</td>
              <td className="max-w-xs break-words px-3 py-2 font-mono text-xs">{e.target}</td>
              <td className="max-w-md px-3 py-2">
                <AuditSummary summary={e.summary} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
