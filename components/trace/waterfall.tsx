"use client";
import { VERDICT_LABEL, VERDICT_TEXT, type CallSummary, type VerdictKind } from "./call-record";

const BAR: Record<VerdictKind, string> = {
  ok: "bg-emerald-500",
  halted: "bg-violet-500",
  failed: "bg-red-500",
  blocked: "bg-red-600 bg-[repeating-linear-gradient(135deg,transparent_0_4px,rgba(255,255,255,.35)_4px_8px)]",
};

interface Props {
  sessionId: string;
  turnStart: number;
  turnEnd: number;
  calls: CallSummary[];
  selected?: string;
}

const pct = (v: number, span: number) => `${Math.max(0, Math.min(100, (v / span) * 100))}%`;

/**
 * The turn's tool calls on one time axis: the light segment is time spent
 * queued (waiting for a concurrency slot), the solid one the call itself, so
 * parallel calls visibly overlap. Each row links to the call's record. A client
 * component so that the page ships each call's summary once, not every row's markup twice.
 */
export function Waterfall({ sessionId, turnStart, turnEnd, calls, selected }: Props) {
  const rows = calls.map((c) => {
    const start = c.started_at ? Date.parse(c.started_at) - turnStart : 0;
    const queued = c.queued_ms ?? 0;
    return { c, queueStart: start - queued, start, end: start + (c.duration_ms ?? 0) };
  });
  const span = Math.max(1, turnEnd - turnStart, ...rows.map((r) => r.end));
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <div role="figure" aria-label="Tool calls on a time axis" className="flex flex-col gap-1 text-xs">
      <div className="wf-grid text-zinc-500">
        <span>call</span>
        <div className="relative h-4">
          {ticks.map((t) => (
            // On a phone the axis is narrow: the quarter ticks would run into each other.
            <span
              key={t}
              className={`absolute whitespace-nowrap ${t === 0.25 || t === 0.75 ? "hidden sm:inline" : ""}`}
              style={{ left: `${t * 100}%`, transform: `translateX(${t === 0 ? 0 : t === 1 ? -100 : -50}%)` }}
            >
              {Math.round(span * t)} ms
            </span>
          ))}
        </div>
      </div>
      {rows.map(({ c, queueStart, start, end }) => (
        <a
          key={c.call_id}
          href={`/sessions/${sessionId}?call=${encodeURIComponent(c.call_id)}#call-${c.call_id}`}
          aria-current={selected === c.call_id ? "true" : undefined}
          data-testid="waterfall-row"
          data-verdict={c.verdict}
          data-queue-start-ms={Math.round(queueStart)}
          data-start-ms={Math.round(start)}
          data-end-ms={Math.round(end)}
          className="wf-row"
        >
          <span className="flex min-w-0 items-center gap-1.5">
            <span className={`font-mono text-[10px] font-bold ${VERDICT_TEXT[c.verdict]}`}>
              {VERDICT_LABEL[c.verdict]}
            </span>
            <span className="truncate font-mono">{c.tool}</span>
          </span>
          <span className="wf-track" title={`queued ${c.queued_ms ?? 0} ms, call ${c.duration_ms ?? 0} ms`}>
            {start > queueStart ? (
              <span
                data-testid="waterfall-queue"
                className="wf-queue"
                style={{ left: pct(queueStart, span), width: pct(start - queueStart, span) }}
              />
            ) : null}
            <span
              data-testid="waterfall-call"
              className={`wf-call ${BAR[c.verdict]}`}
              style={{ left: pct(start, span), width: pct(end - start, span) }}
            />
          </span>
        </a>
      ))}
      <p className="mt-1 text-zinc-500">
        <span className="mr-1 inline-block h-2 w-4 rounded bg-zinc-300 align-middle dark:bg-zinc-700" /> queued
        <span className="ml-3 mr-1 inline-block h-2 w-4 rounded bg-emerald-500 align-middle" /> call
        <span className="ml-3 mr-1 inline-block h-2 w-4 rounded bg-red-600 align-middle" /> failed or blocked
        <span className="ml-3 mr-1 inline-block h-2 w-4 rounded bg-violet-500 align-middle" /> halted the turn
      </p>
    </div>
  );
}
