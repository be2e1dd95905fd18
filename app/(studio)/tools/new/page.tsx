import Link from "next/link";
import { ToolEditor } from "@/components/tools/tool-editor";
import { PageHeader } from "@/components/ui/page-header";
import { requireStudioSession } from "@/lib/api/studio-auth";
import { reservedToolNames } from "@/lib/services/tools/catalog";

export const dynamic = "force-dynamic";

export default async function NewToolPage() {
  await requireStudioSession();
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="New data tool"
        description={
          <>
            An HTTP call described by config. <Link className="underline" href="/tools">Back to the catalog</Link>
          </>
        }
      />
      <ToolEditor stored={null} reservedNames={[...reservedToolNames()]} />
    </div>
  );
}
