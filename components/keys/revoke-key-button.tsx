"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { revokeKeyAction } from "@/app/(studio)/keys/actions";
import { Button } from "@/components/ui/button";

/** Revokes a key after an inline confirmation: it stops working on the next request, everywhere. */
export function RevokeKeyButton({ id, name }: { id: string; name: string }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const revoke = () =>
    start(async () => {
      const r = await revokeKeyAction(id);
      if (!r.ok) return setError(r.error);
      setConfirming(false);
      router.refresh();
    });
  if (!confirming)
    return (
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Revoke
      </Button>
    );
  return (
    <div role="alertdialog" aria-label={`Revoke key ${name}`} className="flex flex-wrap items-center gap-2 text-sm">
      <span>
        Revoke <span className="font-medium">{name}</span>? Every client using it is refused from the next request on.
        This cannot be undone.
      </span>
      <Button variant="danger" disabled={pending} onClick={revoke}>
        Revoke key
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
