import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { failureText } from "@/components/trace/failure-text";
import type { ChildTurns as ChildTurnsOfTurn, ParentTurnLink } from "@/lib/services/sessions/subagent-links";
import { summarizeCall, type CallRecord } from "./call-record";
import { TraceCall } from "./trace-call";
import { Waterfall } from "./waterfall";

export interface TraceTurn {
  id: string;
  seq: number;
  status: string;
  /** The turn whose spawn_subagent(s) call started this one; null for a turn a client started. */
  parent_turn_id: string | null;
  user_message: string;
  content: string | null;
  error: string | null;
  started_at: string | null;
  ended_at: string | null;
  /** Engine events with their data (a `warning` carries its `message`, a `turn_failed` its `code` and `fault`). */
  events: { seq: number; type: string; at: string | null; message?: unknown; fault?: unknown }[];
  calls: CallRecord[];
}

const STATUS_TONE = { running: "blue", completed: "green", halted: "violet", waiting: "amber", failed: "red" } as const;

/** One turn of a session: what was asked, how it ended, the waterfall, and a one-line summary per call (the open call's record in full). */
export function TurnTrace({
  sessionId,
  turn,
  parent,
  childTurns,
  selectedCall,
  open,
}: {
  sessionId: string;
  turn: TraceTurn;
  /** Where the turn's parent turn is (for a subagent's turn). */
  parent?: ParentTurnLink;
  /** The subagents' turns this turn's spawn calls started. */
  childTurns?: ChildTurnsOfTurn;
  selectedCall?: string;
  open: boolean;
}) {
  const start = turn.started_at ? Date.parse(turn.started_at) : 0;
  const calls = turn.calls.map(summarizeCall);
  const bad = calls.filter((c) => c.verdict === "blocked" || c.verdict === "failed").length;
  // A warning changes how the turn ran (e.g. approvals forced it serial): shown, not buried in the event list.
  const warnings = [
    ...new Set(turn.events.flatMap((e) => (e.type === "warning" && typeof e.message === "string" ? [e.message] : []))),
  ];
  // The row keeps the error text; who was at fault is in the trace's turn_failed event.
  const failedEvent = turn.events.findLast((e) => e.type === "turn_failed");
  const end = turn.ended_at
    ? Date.parse(turn.ended_at)
    : Math.max(start, ...turn.events.map((e) => (e.at ? Date.parse(e.at) : 0)));
  return (
    <details
      id={`turn-${turn.id}`}
      open={open}
      data-testid="trace-turn"
      className="group rounded border border-zinc-200 dark:border-zinc-800"
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 p-3">
        <span className="font-mono text-xs text-zinc-500">#{turn.seq}</span>
        <Badge tone={STATUS_TONE[turn.status as keyof typeof STATUS_TONE] ?? "neutral"}>{turn.status}</Badge>
        <span className="min-w-0 flex-1 truncate text-sm font-medium">{turn.user_message}</span>
        {bad > 0 ? <Badge tone="red">{bad} call(s) blocked or failed</Badge> : null}
        {warnings.length > 0 ? <Badge tone="amber">{warnings.length} warning(s)</Badge> : null}
        <span className="text-xs text-zinc-500">
          {turn.calls.length} call(s) · {end - start} ms
        </span>
      </summary>
      <div className="flex flex-col gap-4 border-t border-zinc-200 p-3 dark:border-zinc-800">
        {turn.parent_turn_id ? <ParentTurn turnId={turn.parent_turn_id} link={parent ?? "gone"} /> : null}
        {childTurns ? <ChildTurns turns={childTurns} /> : null}
        {turn.error ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {failureText(turn.error, failedEvent?.fault)}
          </p>
        ) : null}
        {warnings.map((w) => (
          <p
            key={w}
            data-testid="trace-warning"
            className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
          >
            Warning: {w}
          </p>
        ))}
        <div className="text-sm">
          <span className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
            {turn.status === "halted" ? "Published (halted)" : "Reply"}
          </span>
          <p className="whitespace-pre-wrap">{turn.content || <span className="text-zinc-500">(empty)</span>}</p>
        </div>
        {turn.calls.length > 0 ? (
          <Waterfall sessionId={sessionId} turnStart={start} turnEnd={end} calls={calls} selected={selectedCall} />
        ) : (
          <p className="text-sm text-zinc-500">No tool was called in this turn.</p>
        )}
        <ul className="flex flex-col gap-2">
          {calls.map((c, i) => (
            <li key={c.call_id}>
              <TraceCall
                sessionId={sessionId}
                turnId={turn.id}
                call={c}
                record={selectedCall === c.call_id ? turn.calls[i] : undefined}
              />
            </li>
          ))}
        </ul>
        <details className="text-xs">
          <summary className="cursor-pointer text-zinc-500">{turn.events.length} engine events</summary>
          {/* One text block, not an element per event: a turn may have hundreds. */}
          <pre className="mt-1 font-mono">
            {turn.events.map((e) => `+${e.at ? Date.parse(e.at) - start : "?"} ms ${e.type}`).join("\n")}
          </pre>
        </details>
      </div>
    </details>
  );
}

/** A subagent's turn: the turn whose spawn call started it, linked to where its trace is. */
function ParentTurn({ turnId, link }: { turnId: string; link: ParentTurnLink }) {
  return (
    <p data-testid="trace-parent-turn" className="text-sm text-zinc-600 dark:text-zinc-400">
      {link === "hidden" ? (
        "A subagent's turn, started by a spawn call in a session you cannot see."
      ) : link === "gone" ? (
        <>
          A subagent&apos;s turn, started by a spawn call of turn <span className="font-mono">{turnId}</span> (no longer
          stored).
        </>
      ) : (
        <>
          A subagent&apos;s turn, started by a spawn call of turn{" "}
          <Link
            className="font-mono underline"
            href={`/sessions/${encodeURIComponent(link.sessionId)}?turn=${encodeURIComponent(turnId)}#turn-${turnId}`}
          >
            {turnId}
          </Link>
          .
        </>
      )}
    </p>
  );
}

/** The subagents' turns a turn started, each linked to its own session's trace (the first few of many). */
function ChildTurns({ turns }: { turns: ChildTurnsOfTurn }) {
  const notShown = turns.started - turns.shown.length;
  return (
    <div data-testid="trace-child-turns" className="text-sm">
      <span className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
        Subagents&apos; turns ({turns.started})
      </span>
      <ul className="mt-1 flex flex-col gap-1">
        {turns.shown.map((child) => (
          <li key={child.id} className="flex flex-wrap items-center gap-2">
            <Badge tone={STATUS_TONE[child.status as keyof typeof STATUS_TONE] ?? "neutral"}>{child.status}</Badge>
            <Link
              className="font-mono underline"
              href={`/sessions/${encodeURIComponent(child.sessionId)}?turn=${encodeURIComponent(child.id)}#turn-${child.id}`}
            >
              {child.id}
            </Link>
          </li>
        ))}
      </ul>
      {notShown > 0 ? (
        <p className="mt-1 text-xs text-zinc-500">
          {notShown} more not listed here (later ones, or in sessions you cannot see).
        </p>
      ) : null}
    </div>
  );
}
