import Link from "next/link";
import { AgentForm } from "@/components/agents/agent-form";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "../../page-access";

export const dynamic = "force-dynamic";

export default async function NewAgentPage() {
  await requirePage("/agents/new", ["agents:write"]);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="New agent"
        description={
          <Link className="underline" href="/agents">
            All agents
          </Link>
        }
      />
      <AgentForm id={null} stored={null} />
    </div>
  );
}
