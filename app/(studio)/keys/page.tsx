import { CreateKeyForm } from "@/components/keys/create-key-form";
import { KeyTable } from "@/components/keys/key-table";
import { PageHeader } from "@/components/ui/page-header";
import { listAgentSummaries } from "@/lib/services/agents/agent-page";
import { listKeys } from "@/lib/services/keys/api-keys";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";

export const dynamic = "force-dynamic";

export default async function KeysPage() {
  const principal = await requirePage("/keys");
  const db = studioDb();
  const keys = await listKeys(db, principal);
  const agents = (await listAgentSummaries(db)).map((a) => ({ id: a.id, name: a.name }));
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="API keys"
        description={
          <>
            Each client gets its own key with only the scopes its job needs. A key&apos;s value is shown once, when it
            is created; only a hash is stored. Also: <code>insika keys</code> and <code>/v1/keys</code>.
          </>
        }
      />
      <h2 className="text-lg font-semibold">Create a key</h2>
      <CreateKeyForm agents={agents} />
      <h2 className="text-lg font-semibold">Keys</h2>
      <KeyTable keys={keys} self={principal.keyId} />
    </div>
  );
}
