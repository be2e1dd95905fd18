/**
 * The call record as the trace and "Try it" carry it (API.md: GET
 * /v1/sessions/:id/trace), read defensively: records come from several
 * writers (engine, http-tools, code tools) and older rows may lack fields.
 */
export interface CallRecord {
  call_id: string;
  tool: string;
  kind?: string;
  arguments?: unknown;
  request?: { method?: string; url?: string; headers?: Record<string, string> } | null;
  status?: number | null;
  ok: boolean;
  duration_ms?: number;
  queued_ms?: number;
  started_at?: string | null;
  result?: unknown;
  error?: string;
  egress?: { verdict?: string; rule?: string; hint?: string | null } | null;
  halted?: boolean;
  halt_reason?: string;
  redirects?: { url: string; status: number | null }[];
  result_truncated?: boolean;
  /** In flight when the server stopped; reported to the model as "outcome unknown", never re-sent. */
  outcome_unknown?: boolean;
}

export type VerdictKind = "blocked" | "halted" | "failed" | "ok";

export interface Verdict {
  kind: VerdictKind;
  title: string;
  detail?: string;
  hint?: string;
}

const BLOCKED = "destination blocked: ";

/** What happened to the call, in plain words. A blocked call is never reported as a success. */
export function callVerdict(r: CallRecord): Verdict {
  const blockedText =
    typeof r.error === "string" && r.error.startsWith(BLOCKED) ? r.error.slice(BLOCKED.length) : undefined;
  if (r.egress?.verdict === "blocked" || blockedText !== undefined) {
    return {
      kind: "blocked",
      title: "Blocked by the egress guard: the request never left Insika",
      detail: [blockedText, r.egress?.rule ? `rule ${r.egress.rule}` : null].filter(Boolean).join(" · "),
      hint: r.egress?.hint ?? undefined,
    };
  }
  if (r.outcome_unknown) {
    return {
      kind: "failed",
      title: "Outcome unknown: the call was in flight when the server stopped; it was not sent again",
      detail: r.error,
    };
  }
  if (!r.ok) {
    const sent = typeof r.status === "number";
    return {
      kind: "failed",
      title: sent ? `Failed: the backend answered HTTP ${r.status}` : "Failed before any request was sent",
      detail: r.error,
    };
  }
  if (r.halted) {
    return {
      kind: "halted",
      title: "Halted the turn: the response matched halt_when, so the model was not asked again",
      detail: r.halt_reason,
    };
  }
  return {
    kind: "ok",
    title:
      typeof r.status === "number"
        ? `Succeeded: HTTP ${r.status}`
        : r.kind === "code"
          ? "Succeeded (code tool, run in-process)"
          : "Succeeded",
  };
}

export const VERDICT_STYLE: Record<VerdictKind, string> = {
  blocked: "border-red-400 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  failed: "border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200",
  halted:
    "border-violet-300 bg-violet-50 text-violet-900 dark:border-violet-800 dark:bg-violet-950 dark:text-violet-200",
  ok: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
};

export const VERDICT_LABEL: Record<VerdictKind, string> = {
  blocked: "BLOCKED",
  failed: "FAILED",
  halted: "HALTED",
  ok: "OK",
};

/** The verdict word's colour in one-line rows (waterfall, call summary): only "ok" is green. */
export const VERDICT_TEXT: Record<VerdictKind, string> = {
  blocked: "text-red-700 dark:text-red-400",
  failed: "text-red-700 dark:text-red-400",
  halted: "text-violet-700 dark:text-violet-300",
  ok: "text-emerald-700 dark:text-emerald-400",
};

/** What a closed call shows (and all the page ships for it): the detail is loaded when it is opened. */
export interface CallSummary {
  call_id: string;
  tool: string;
  verdict: VerdictKind;
  title: string;
  started_at?: string | null;
  queued_ms?: number;
  duration_ms?: number;
}

export function summarizeCall(r: CallRecord): CallSummary {
  const v = callVerdict(r);
  return {
    call_id: r.call_id,
    tool: r.tool,
    verdict: v.kind,
    title: v.title,
    started_at: r.started_at,
    queued_ms: r.queued_ms,
    duration_ms: r.duration_ms,
  };
}

/** Pretty JSON for display (strings that hold JSON are parsed first). */
export function pretty(value: unknown): string {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value ?? null, null, 2);
}
