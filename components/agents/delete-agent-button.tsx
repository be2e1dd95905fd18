"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deleteAgentAction } from "@/app/(studio)/agents/actions";
import { Button } from "@/components/ui/button";

/**
 * Deletes (archives) an agent after an inline confirmation that says what happens: the agent
 * goes, its sessions and traces stay readable, and a turn waiting for an approval ends.
 */
export function DeleteAgentButton({ id }: { id: string }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const remove = () =>
    start(async () => {
      const r = await deleteAgentAction(id);
      if (!r.ok) return setError(r.error);
      router.push("/agents");
      router.refresh();
    });
  if (!confirming)
    return (
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Delete agent
      </Button>
    );
  return (
    <div role="alertdialog" aria-label={`Delete agent ${id}`} className="flex flex-wrap items-center gap-2 text-sm">
      <span>
        Delete <span className="font-mono">{id}</span>? Its sessions and traces are kept; turns waiting for an approval
        end.
      </span>
      <Button variant="danger" disabled={pending} onClick={remove}>
        Delete
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
