"use client";
import { useRouter } from "next/navigation";
import { deleteAgentAction } from "@/app/(studio)/agents/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

/**
 * Deletes (archives) an agent after an inline confirmation that says what happens: the agent
 * goes, its sessions and traces stay readable, and a turn waiting for an approval ends.
 */
export function DeleteAgentButton({ id }: { id: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Delete agent"
      confirmLabel="Delete"
      dialogLabel={`Delete agent ${id}`}
      message={
        <>
          Delete <span className="font-mono">{id}</span>? Its sessions and traces are kept; turns waiting for an
          approval end.
        </>
      }
      onConfirm={() => deleteAgentAction(id)}
      onDone={() => {
        router.push("/agents");
        router.refresh();
      }}
    />
  );
}
