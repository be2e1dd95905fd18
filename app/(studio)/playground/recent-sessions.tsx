import Link from "next/link";

interface Row {
  id: string;
  updated_at: string;
  turns: number;
  last_message: string | null;
}

/** The playground's sessions view: the agent's recent sessions this key may see, to continue one. */
export function RecentSessions({
  agentId,
  current,
  sessions,
}: {
  agentId: string;
  current: string | null;
  sessions: Row[];
}) {
  if (sessions.length === 0) return null;
  return (
    <section aria-labelledby="recent-sessions" className="flex flex-col gap-1 text-sm">
      <h2 id="recent-sessions" className="font-medium">
        Recent sessions of this agent
      </h2>
      <ul className="flex flex-col gap-0.5">
        {sessions.map((s) => (
          <li key={s.id} data-session={s.id} className="flex min-w-0 gap-2">
            <Link
              aria-current={s.id === current ? "page" : undefined}
              className="font-mono underline aria-[current=page]:font-semibold"
              href={`/playground?agent=${encodeURIComponent(agentId)}&session=${encodeURIComponent(s.id)}`}
            >
              {s.id}
            </Link>
            <span className="text-zinc-500">
              {s.turns} turn(s) · {s.updated_at.replace("T", " ").slice(0, 19)}
            </span>
            <span className="min-w-0 truncate">{s.last_message ?? ""}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
