import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { listSessionRows } from "@/lib/services/sessions/session-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

const TONE = { running: "blue", completed: "green", halted: "violet", waiting: "amber", failed: "red" } as const;

export default async function SessionsPage() {
  const principal = await requirePage("/sessions");
  // Filtered in the query (a tenant-pinned key sees its tenant only), so the page's 100 are all its own.
  const sessions = await listSessionRows(studioDb(), undefined, principal);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Sessions"
        description="Recent conversations, newest first. Open one for its trace: every turn, every tool call, what the backend said."
      />
      {sessions.length === 0 ? (
        <EmptyState title="No sessions yet">
          Run a turn in the{" "}
          <Link className="underline" href="/playground">
            Playground
          </Link>
          , or POST to <code>/v1/sessions</code>.
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-sm">
            <thead className="bg-zinc-50 text-left text-xs text-zinc-500 dark:bg-zinc-900">
              <tr>
                <th className="px-3 py-2 font-medium">Session</th>
                <th className="px-3 py-2 font-medium">Agent</th>
                <th className="px-3 py-2 font-medium">Last message</th>
                <th className="px-3 py-2 font-medium">Turns</th>
                <th className="px-3 py-2 font-medium">Updated</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} data-session={s.id} className="border-t border-zinc-100 dark:border-zinc-900">
                  <td className="px-3 py-2">
                    <Link className="font-mono underline" href={`/sessions/${s.id}`}>
                      {s.id}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{s.agent_name}</td>
                  <td className="max-w-xs truncate px-3 py-2">
                    {s.last_status ? <Badge tone={TONE[s.last_status]}>{s.last_status}</Badge> : null}{" "}
                    {s.last_message ?? <span className="text-zinc-500">no turn yet</span>}
                  </td>
                  <td className="px-3 py-2">{s.turns}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-zinc-500">
                    {s.updated_at?.replace("T", " ").slice(0, 19)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
