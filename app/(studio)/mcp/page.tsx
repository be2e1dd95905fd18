import { McpImporter } from "@/components/mcp/mcp-importer";
import { PageHeader } from "@/components/ui/page-header";
import { Editable } from "@/components/ui/editable";
import { listMcpInstances } from "@/lib/services/mcp/mcp-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";
import { readOnlyReason } from "../studio-pages";

export const dynamic = "force-dynamic";

export default async function McpPage() {
  const principal = await requirePage("/mcp");
  const instances = await listMcpInstances(studioDb());
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="MCP servers"
        description="Import the tools of an HTTP MCP server as data tools. Re-importing updates them: tools the server no longer lists are removed, unchanged ones are left alone."
      />
      <Editable readOnly={readOnlyReason(principal, ["tools:write"], "importing an MCP server")}>
        <McpImporter instances={instances} />
      </Editable>
    </div>
  );
}
