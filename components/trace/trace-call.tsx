"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { CallDetail } from "./call-detail";
import { VERDICT_LABEL, VERDICT_TEXT, type CallRecord, type CallSummary } from "./call-record";

interface Props {
  sessionId: string;
  turnId: string;
  call: CallSummary;
  /** The record, server-rendered, for the call the page was opened on (`?call=`); others load when opened. */
  record?: CallRecord;
}

type Loaded = { record: CallRecord } | { error: string } | null;

async function fetchRecord(sessionId: string, turnId: string, callId: string): Promise<Loaded> {
  const url = `/studio-api/sessions/${encodeURIComponent(sessionId)}/calls/${encodeURIComponent(callId)}?turn=${encodeURIComponent(turnId)}`;
  try {
    // eslint-disable-next-line no-restricted-globals -- the browser calling this app's own origin (cookie auth), not egress
    const res = await fetch(url, { cache: "no-store" });
    const body = (await res.json()) as { call?: CallRecord; error?: { message?: string } };
    return body.call ? { record: body.call } : { error: body.error?.message ?? `HTTP ${res.status}` };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** One call of a turn: a one-line summary; its full record is rendered only while it is open. */
export function TraceCall({ sessionId, turnId, call, record }: Props) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [loaded, setLoaded] = useState<Loaded>(record ? { record } : null);
  const started = useRef(Boolean(record));
  const [open, setOpen] = useState(Boolean(record));

  const load = useCallback(() => {
    if (started.current) return;
    started.current = true;
    void fetchRecord(sessionId, turnId, call.call_id).then((next) => {
      // A failed load may be retried by closing and opening the call again.
      if (next && "error" in next) started.current = false;
      setLoaded(next);
    });
  }, [sessionId, turnId, call.call_id]);

  const onToggle = useCallback(() => {
    const isOpen = ref.current?.open ?? false;
    setOpen(isOpen);
    if (isOpen) load();
  }, [load]);

  // Opened before hydration (a click on a slow page): the toggle event was missed.
  useEffect(() => {
    if (ref.current?.open) onToggle();
  }, [onToggle]);

  const link = `/sessions/${sessionId}?call=${encodeURIComponent(call.call_id)}#call-${call.call_id}`;
  return (
    <details
      ref={ref}
      id={`call-${call.call_id}`}
      open={Boolean(record)}
      onToggle={onToggle}
      data-testid="trace-call"
      data-verdict={call.verdict}
      className="trace-call"
    >
      <summary className="trace-call-line">
        <span className={`font-mono text-xs font-bold ${VERDICT_TEXT[call.verdict]}`}>
          {VERDICT_LABEL[call.verdict]}
        </span>
        <span className="font-mono">{call.tool}</span>
        <span className="min-w-0 flex-1 truncate text-xs text-zinc-500">{call.title}</span>
        <span className="text-xs text-zinc-500">{call.duration_ms ?? "?"} ms</span>
        <a className="text-xs underline" href={link}>
          link
        </a>
      </summary>
      {open ? (
        <div className="border-t border-zinc-200 p-3 dark:border-zinc-800">
          {loaded && "record" in loaded ? (
            <CallDetail record={loaded.record} />
          ) : loaded ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              Could not load this call: {loaded.error}
            </p>
          ) : (
            <p className="text-sm text-zinc-500" aria-busy="true">
              Loading the call record…
            </p>
          )}
        </div>
      ) : null}
    </details>
  );
}
