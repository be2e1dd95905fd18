import Link from "next/link";
import type { CallListRow } from "@/lib/services/observability/calls-page";
import { Badge } from "@/components/ui/badge";
import { callsHref } from "./calls-href";

const cell = "px-2 py-1.5";

/** One page of calls; each links to its place in the trace, its tool to that tool's calls. */
export function CallsTable({ calls }: { calls: CallListRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="calls-table">
        <thead className="text-left text-zinc-500">
          <tr>
            <th className={cell}>Started (UTC)</th>
            <th className={cell}>Tool</th>
            <th className={cell}>Agent</th>
            <th className={cell}>Outcome</th>
            <th className={`${cell} text-right`}>HTTP</th>
            <th className={`${cell} text-right`}>Duration</th>
            <th className={cell}>Trace</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((c) => (
            <tr key={c.id} className="border-t border-zinc-100 dark:border-zinc-800">
              <td className={`${cell} whitespace-nowrap tabular-nums`}>
                {new Date(c.startedAt).toISOString().replace("T", " ").slice(0, 19)}
              </td>
              <td className={`${cell} font-mono`}>
                <Link className="underline" href={callsHref({ tool: c.tool })}>
                  {c.tool}
                </Link>
              </td>
              <td className={cell}>{c.agentId}</td>
              <td className={cell}>
                {c.verdict === "blocked" ? (
                  <Badge tone="red" title={c.error ?? undefined}>
                    blocked: {c.rule}
                  </Badge>
                ) : c.ok ? (
                  <Badge tone="green">ok</Badge>
                ) : (
                  <Badge tone="amber" title={c.error ?? undefined}>
                    failed
                  </Badge>
                )}
              </td>
              <td className={`${cell} text-right tabular-nums`}>{c.status ?? "–"}</td>
              <td className={`${cell} text-right tabular-nums`}>{c.durationMs} ms</td>
              <td className={cell}>
                <Link
                  className="underline"
                  href={`/sessions/${encodeURIComponent(c.sessionId)}?turn=${encodeURIComponent(c.turnId)}&call=${encodeURIComponent(c.callId)}`}
                >
                  {c.callId}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
