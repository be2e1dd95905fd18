import { McpImporter } from "@/components/mcp/mcp-importer";
import { PageHeader } from "@/components/ui/page-header";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { listMcpInstances } from "@/lib/services/mcp/mcp-page";
import { studioDb } from "../action-result";

export const dynamic = "force-dynamic";

export default async function McpPage() {
  await requireStudioSession();
  const instances = listMcpInstances(studioDb());
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="MCP servers"
        description="Import the tools of an HTTP MCP server as data tools. Re-importing updates them: tools the server no longer lists are removed, unchanged ones are left alone."
      />
      <McpImporter instances={instances} />
    </div>
  );
}
