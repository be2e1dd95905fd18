"use client";
import Link from "next/link";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import type { PendingApprovalRow } from "@/lib/services/approvals/approval-page";
import { DecisionForm, type Decision } from "./decision-form";

/** "3 min", "2 h 5 min": a duration for people. */
export function humanDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** One pending approval: what the model wants to call, from which session, since when, until when. */
export function PendingApproval({ row }: { row: PendingApprovalRow }) {
  // Decided rows stay (dimmed, with the outcome) until the page is reloaded, so the decision can be read.
  const [decided, setDecided] = useState<Decision | null>(null);
  const soon = row.expires_in_ms !== null && row.expires_in_ms < 5 * 60_000;
  return (
    <li
      data-approval={row.id}
      data-tool={row.tool}
      data-state={decided ?? "pending"}
      className={`flex flex-col gap-2 rounded border border-zinc-200 p-3 dark:border-zinc-800 ${decided ? "opacity-70" : ""}`}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-semibold">{row.tool}</span>
        <Badge tone={decided === "approved" ? "green" : decided === "rejected" ? "red" : "amber"}>
          {decided ?? "pending"}
        </Badge>
        <Link
          className="ml-auto min-w-0 truncate text-xs underline"
          href={`/sessions/${encodeURIComponent(row.session_id)}?turn=${encodeURIComponent(row.turn_id)}#turn-${row.turn_id}`}
        >
          Session <span className="font-mono">{row.session_id}</span>
        </Link>
      </div>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        <span title={row.created_at ?? undefined}>Asked {humanDuration(row.age_ms)} ago</span>
        {row.expires_in_ms !== null ? (
          <span className={soon ? "text-red-700 dark:text-red-400" : undefined} title={row.expires_at ?? undefined}>
            {" "}
            · expires in {humanDuration(row.expires_in_ms)}, then counts as rejected
          </span>
        ) : null}
      </p>
      <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 font-mono text-xs dark:bg-zinc-900">
        {JSON.stringify(row.arguments, null, 2)}
      </pre>
      {decided ? (
        <p role="status" className="text-sm">
          {decided === "approved" ? "Approved" : "Rejected"}: the turn goes on.
        </p>
      ) : (
        <DecisionForm approvalId={row.id} tool={row.tool} onDecided={setDecided} />
      )}
    </li>
  );
}
