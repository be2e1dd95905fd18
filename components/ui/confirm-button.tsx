"use client";
import { useState, useTransition, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

export interface ConfirmButtonProps {
  /** The danger button that asks first. */
  label: string;
  /** The button that does it, in the confirmation. */
  confirmLabel: string;
  /** The confirmation's accessible name. */
  dialogLabel: string;
  /** What happens, said before it does. */
  message: ReactNode;
  /** Runs the action; an error is shown beside the buttons. */
  onConfirm: () => Promise<{ ok: true } | { ok: false; error: string }>;
  /** After the action succeeded. */
  onDone: () => void;
}

/** A destructive action behind an inline confirmation that says what will happen. */
export function ConfirmButton({ label, confirmLabel, dialogLabel, message, onConfirm, onDone }: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const confirm = () =>
    start(async () => {
      const r = await onConfirm();
      if (!r.ok) return setError(r.error);
      setConfirming(false);
      onDone();
    });
  if (!confirming)
    return (
      <Button variant="danger" onClick={() => setConfirming(true)}>
        {label}
      </Button>
    );
  return (
    <div role="alertdialog" aria-label={dialogLabel} className="flex flex-wrap items-center gap-2 text-sm">
      <span>{message}</span>
      <Button variant="danger" disabled={pending} onClick={confirm}>
        {confirmLabel}
      </Button>
      <Button variant="secondary" disabled={pending} onClick={() => setConfirming(false)}>
        Cancel
      </Button>
      {error ? (
        <span role="alert" className="text-red-700 dark:text-red-400">
          {error}
        </span>
      ) : null}
    </div>
  );
}
