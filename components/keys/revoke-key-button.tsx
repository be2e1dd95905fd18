"use client";
import { useRouter } from "next/navigation";
import { revokeKeyAction } from "@/app/(studio)/keys/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Revokes a key after an inline confirmation: it stops working on the next request, everywhere. */
export function RevokeKeyButton({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke"
      confirmLabel="Revoke key"
      dialogLabel={`Revoke key ${name}`}
      message={
        <>
          Revoke <span className="font-medium">{name}</span>? Every client using it is refused from the next request on.
          This cannot be undone.
        </>
      }
      onConfirm={() => revokeKeyAction(id)}
      onDone={() => router.refresh()}
    />
  );
}
