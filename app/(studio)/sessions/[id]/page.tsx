import Link from "next/link";
import { notFound } from "next/navigation";
import { TurnTrace, type TraceTurn } from "@/components/trace/turn-trace";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { hasAnyScope } from "@/lib/access/principal";
import { DomainError } from "@/lib/errors";
import { READ_SESSIONS } from "@/lib/access/scopes";
import { getTrace } from "@/lib/services/sessions/sessions";
import { subagentLinks, type SubagentLinks } from "@/lib/services/sessions/subagent-links";
import { TRACE_PAGE_TURNS, traceWindow, type TraceWindow } from "@/lib/services/sessions/trace-window";
import { studioDb } from "../../action-result";
import { requirePage } from "../../page-access";
import { getVisibleSessionOrThrow } from "@/lib/services/sessions/session-access";
import { searchParam, type PageSearchParams } from "../../search-param";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<PageSearchParams>;
};

export default async function SessionTracePage({ params, searchParams }: Props) {
  // A turns:run key opens the trace of its own sessions (the playground links each call to it).
  const principal = await requirePage("/sessions", READ_SESSIONS);
  const { id } = await params;
  const query = await searchParams;
  const turn = searchParam(query, "turn");
  const call = searchParam(query, "call");
  let trace: Awaited<ReturnType<typeof getTrace>>;
  let view: TraceWindow;
  let links: SubagentLinks;
  try {
    await getVisibleSessionOrThrow(studioDb(), principal, id);
    // One page of turns: the one with the call or turn a link names, else the latest.
    view = await traceWindow(studioDb(), id, { afterSeq: searchParam(query, "after_seq"), turn, call });
    trace = await getTrace(studioDb(), id, { page: view.page });
    // Subagents' turns link back to the turn that started them, and it to them: each link only
    // where this principal may see the session it leads to (a subagent's is its own agent's).
    links = await subagentLinks(studioDb(), principal, trace.turns);
  } catch (error) {
    // A session this principal may not see is as unknown as one that does not exist.
    if (error instanceof DomainError && error.code === "not_found") notFound();
    throw error;
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
      <TurnPages sessionId={trace.session_id} view={view} turns={turns} next={trace.next_after_seq} />
      {turns.length === 0 && view.lastSeq > 0 ? (
        <EmptyState title="No turns on this page">This session has {view.lastSeq} turns.</EmptyState>
      ) : turns.length === 0 ? (
        <EmptyState title="No turns in this session yet">Send a message from the playground to run one.</EmptyState>
      ) : (
        <div className="flex flex-col gap-3">
          {turns.map((t) => (
            <TurnTrace
              key={t.id}
              sessionId={trace.session_id}
              turn={t}
              parent={t.parent_turn_id ? links.parents.get(t.parent_turn_id) : undefined}
              childTurns={links.children.get(t.id)}
              selectedCall={call}
              open={t.id === openTurn}
            />
          ))}
        </div>
      )}
    </div>
  );
}

/** Where this page is among the session's turns, and links to the pages before and after it. */
function TurnPages({
  sessionId,
  view,
  turns,
  next,
}: {
  sessionId: string;
  view: TraceWindow;
  turns: TraceTurn[];
  next: number | null;
}) {
  const { afterSeq } = view.page;
  if (view.lastSeq <= TRACE_PAGE_TURNS && afterSeq === 0) return null;
  const href = (after: number) => `/sessions/${encodeURIComponent(sessionId)}?after_seq=${after}`;
  return (
    <nav
      aria-label="Pages of turns"
      className="flex items-center justify-between gap-3 text-sm"
      data-testid="turn-pages"
    >
      <span className="text-zinc-500 dark:text-zinc-400">
        {turns.length > 0 ? `Turns ${turns[0]!.seq}–${turns.at(-1)!.seq} of ${view.lastSeq}` : `${view.lastSeq} turns`}
      </span>
      <span className="flex gap-2">
        {afterSeq > 0 ? (
          <Link className={buttonClass("secondary")} href={href(Math.max(0, afterSeq - TRACE_PAGE_TURNS))}>
            Earlier turns
          </Link>
        ) : null}
        {next !== null ? (
          <Link className={buttonClass("secondary")} href={href(next)}>
            Later turns
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
