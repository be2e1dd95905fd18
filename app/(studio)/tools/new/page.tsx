import Link from "next/link";
import { ToolEditor } from "@/components/tools/tool-editor";
import { PageHeader } from "@/components/ui/page-header";
import { reservedToolNames } from "@/lib/services/tools/catalog";
import { requirePage } from "../../page-access";

export const dynamic = "force-dynamic";

export default async function NewToolPage() {
  await requirePage("/tools/new", ["tools:write"]);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="New data tool"
        description={
          <>
            An HTTP call described by config.{" "}
            <Link className="underline" href="/tools">
              Back to the catalog
            </Link>
          </>
        }
      />
      <ToolEditor stored={null} reservedNames={[...reservedToolNames()]} />
    </div>
  );
}
