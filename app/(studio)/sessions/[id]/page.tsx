import Link from "next/link";
import { notFound } from "next/navigation";
import { TurnTrace, type TraceTurn } from "@/components/trace/turn-trace";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope } from "@/lib/access/principal";
import { READ_SESSIONS } from "@/lib/access/scopes";
import { getTrace } from "@/lib/services/sessions/sessions";
import { EVERY_TURN } from "@/lib/services/sessions/turn-page";
import { studioDb } from "../../action-result";
import { requirePage } from "../../page-access";
import { getVisibleSessionOrThrow } from "@/lib/services/sessions/session-access";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ turn?: string; call?: string }> };

export default async function SessionTracePage({ params, searchParams }: Props) {
  // A turns:run key opens the trace of its own sessions (the playground links each call to it).
  const principal = await requirePage("/sessions", READ_SESSIONS);
  const { id } = await params;
  const { turn, call } = await searchParams;
  let trace: Awaited<ReturnType<typeof getTrace>>;
  try {
    await getVisibleSessionOrThrow(studioDb(), principal, id);
    // Every turn: the page opens the turn a link names, and shows them all (docs/decisions.md).
    trace = await getTrace(studioDb(), id, { page: EVERY_TURN });
  } catch {
    notFound();
  }
  const turns = trace.turns as unknown as TraceTurn[];
  const withCall = call ? turns.find((t) => t.calls.some((c) => c.call_id === call))?.id : undefined;
  const openTurn = withCall ?? turn ?? turns.at(-1)?.id;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Trace"
        description={
          <span className="font-mono">
            {trace.session_id} · agent {trace.agent_id}
          </span>
        }
        actions={
          <>
            {hasAnyScope(principal, ["traces:read"]) ? (
              <Link className={buttonClass("secondary")} href="/sessions">
                All sessions
              </Link>
            ) : null}
            {hasAnyScope(principal, ["turns:run"]) ? (
              <Link
                className={buttonClass()}
                href={`/playground?agent=${encodeURIComponent(trace.agent_id)}&session=${encodeURIComponent(trace.session_id)}`}
              >
                Continue in playground
              </Link>
            ) : null}
          </>
        }
      />
      {turns.length === 0 ? (
        <EmptyState title="No turns in this session yet">Send a message from the playground to run one.</EmptyState>
      ) : (
        <div className="flex flex-col gap-3">
          {turns.map((t) => (
            <TurnTrace key={t.id} sessionId={trace.session_id} turn={t} selectedCall={call} open={t.id === openTurn} />
          ))}
        </div>
      )}
    </div>
  );
}
