"use client";
import { useState } from "react";
import { DecisionForm, type Decision } from "@/components/approvals/decision-form";
import type { TurnPart } from "./turn-model";

type ApprovalPart = Extract<TurnPart, { type: "approval" }>;

const DECIDED = {
  approved: {
    text: "Approved",
    style: "border-emerald-300 bg-emerald-50 dark:border-emerald-900 dark:bg-emerald-950/50",
  },
  rejected: { text: "Rejected", style: "border-red-300 bg-red-50 dark:border-red-900 dark:bg-red-950/50" },
} as const;

/**
 * A call waiting for a person's decision (DESIGN D8). Deciding here records it; the turn
 * goes on in the background and the playground follows it (`onDecided`).
 */
export function ApprovalCard({ part, onDecided }: { part: ApprovalPart; onDecided?: () => void }) {
  const [local, setLocal] = useState<Decision | null>(null);
  const decided = part.decided ?? local;
  const decide = (d: Decision) => {
    setLocal(d);
    onDecided?.();
  };
  return (
    <div
      role="group"
      aria-label={`Approval for ${part.tool}`}
      data-testid="approval-card"
      data-state={decided ?? "pending"}
      className={`flex flex-col gap-2 rounded border p-3 text-sm ${decided ? DECIDED[decided].style : "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950"}`}
    >
      <p className="break-words">
        <span className="font-semibold">
          {decided
            ? `${DECIDED[decided].text}${part.expired ? " (expired: nobody decided in time)" : ""}:`
            : "Waiting for approval:"}
        </span>{" "}
        <span className="font-mono">{part.tool}</span>{" "}
        <span className="break-all font-mono text-xs">{JSON.stringify(part.arguments)}</span>
      </p>
      {decided ? (
        part.decided ? null : (
          <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
            Decision recorded; the turn goes on…
          </p>
        )
      ) : (
        <DecisionForm approvalId={part.approval_id} tool={part.tool} onDecided={decide} />
      )}
    </div>
  );
}
