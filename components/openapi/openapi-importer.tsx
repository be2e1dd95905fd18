"use client";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import type { OpenApiImportRow } from "@/lib/services/openapi/openapi-page";
import { OpenApiImportFormView } from "./openapi-import-form";
import { OpenApiImportResult } from "./openapi-import-result";
import { useOpenApiImport } from "./use-openapi-import";

/** The OpenAPI page: the import form and its outcome, and the imports made so far. */
export function OpenApiImporter({ imports }: { imports: OpenApiImportRow[] }) {
  const { form, setForm, outcome, pending, submit } = useOpenApiImport();
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <section aria-labelledby="openapi-import-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="openapi-import-title" className="text-lg font-semibold">
          Import a document
        </h2>
        <OpenApiImportFormView form={form} onChange={setForm} onSubmit={submit} pending={pending} />
        <div aria-live="polite">
          {pending ? (
            <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
              Reading the document and converting its operations…
            </p>
          ) : null}
          {outcome ? <OpenApiImportResult outcome={outcome} /> : null}
        </div>
      </section>
      <section aria-labelledby="openapi-imports-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="openapi-imports-title" className="text-lg font-semibold">
          Imported documents
        </h2>
        {imports.length === 0 ? (
          <EmptyState title="No OpenAPI document imported yet">
            Each operation becomes a tool of the group <code className="font-mono">openapi:&lt;name&gt;</code>, which
            agents can allow like any other.
          </EmptyState>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="openapi-imports">
            {imports.map((i) => (
              <li
                key={i.group}
                className="flex items-center justify-between rounded border border-zinc-200 p-3 text-sm dark:border-zinc-800"
              >
                <span className="font-mono">{i.group}</span>
                <Link className="text-sky-700 underline dark:text-sky-400" href="/tools">
                  {i.tools} tools
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
