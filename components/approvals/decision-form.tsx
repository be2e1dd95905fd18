"use client";
import { useId, useState, useTransition } from "react";
import { decideApprovalAction } from "@/app/(studio)/playground/actions";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";

export type Decision = "approved" | "rejected";

/**
 * Approve / Reject one pending call, with an optional note kept on the approval.
 * `onDecided` runs once the decision is recorded (the waiting turn then goes on).
 */
export function DecisionForm({
  approvalId,
  tool,
  onDecided,
}: {
  approvalId: string;
  tool: string;
  onDecided?: (d: Decision) => void;
}) {
  const id = useId();
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const decide = (decision: Decision) =>
    start(async () => {
      setError(null);
      const r = await decideApprovalAction(approvalId, decision, note);
      if (r.ok) onDecided?.(decision);
      else setError(r.error);
    });
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-note`} className="sr-only">
          Note for {tool} (optional)
        </label>
        <input
          id={`${id}-note`}
          className={`${inputClass} min-w-0 flex-1 basis-48`}
          placeholder="Note (optional)"
          maxLength={2000}
          value={note}
          disabled={pending}
          onChange={(e) => setNote(e.target.value)}
        />
        <div className="flex gap-2">
          <Button onClick={() => decide("approved")} disabled={pending} aria-label={`Approve ${tool}`}>
            Approve
          </Button>
          <Button variant="danger" onClick={() => decide("rejected")} disabled={pending} aria-label={`Reject ${tool}`}>
            Reject
          </Button>
        </div>
      </div>
      {pending ? (
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          Sending the decision…
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
