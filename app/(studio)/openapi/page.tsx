import { OpenApiImporter } from "@/components/openapi/openapi-importer";
import { Editable } from "@/components/ui/editable";
import { PageHeader } from "@/components/ui/page-header";
import { listOpenApiImports } from "@/lib/services/openapi/openapi-page";
import { studioDb } from "../action-result";
import { requirePage } from "../page-access";
import { readOnlyReason } from "../studio-pages";

export const dynamic = "force-dynamic";

export default async function OpenApiPage() {
  const principal = await requirePage("/openapi");
  const imports = await listOpenApiImports(studioDb());
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="OpenAPI"
        description="Import the operations of an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) as data tools. Re-importing updates them: operations the document no longer has are removed, unchanged ones are left alone."
      />
      <Editable readOnly={readOnlyReason(principal, ["tools:write"], "importing an OpenAPI document")}>
        <OpenApiImporter imports={imports} />
      </Editable>
    </div>
  );
}
