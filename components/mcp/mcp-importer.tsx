"use client";
import { useEffect, useRef } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import type { McpInstanceRow } from "@/lib/services/mcp/mcp-page";
import { ImportFailure } from "./import-failure";
import { ImportSummary } from "./import-summary";
import { InstanceList } from "./instance-list";
import { McpImportFormView } from "./mcp-import-form";
import { useMcpImport } from "./use-mcp-import";

/** Validation problems that belong to a field (the service joins them with "; "). */
function fieldErrors(code: string | undefined, message: string | undefined) {
  if (code !== "validation_failed" || !message) return {};
  const problems = message.split("; ");
  return { name: problems.filter((p) => p.startsWith("name")), url: problems.filter((p) => p.startsWith("url")) };
}

/** The MCP page: the import form and its outcome, and the instances imported so far. */
export function McpImporter({ instances }: { instances: McpInstanceRow[] }) {
  const { form, setForm, outcome, pending, running, submit, reimport } = useMcpImport();
  const result = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) result.current?.scrollIntoView({ block: "nearest" });
  }, [outcome]);
  const failure = outcome && !outcome.ok ? outcome.failure : undefined;
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <section aria-labelledby="mcp-import-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="mcp-import-title" className="text-lg font-semibold">
          Import a server
        </h2>
        <McpImportFormView
          form={form}
          onChange={setForm}
          onSubmit={submit}
          pending={pending}
          errors={fieldErrors(failure?.code, failure?.error)}
        />
        <div ref={result} aria-live="polite" className="flex flex-col gap-3">
          {pending ? (
            <p
              role="status"
              data-testid="mcp-progress"
              className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400"
            >
              <span
                aria-hidden
                className="inline-block size-3 animate-spin rounded-full border-2 border-zinc-400 border-t-transparent"
              />
              Connecting to <span className="break-all font-mono">{running}</span> and listing its tools…
            </p>
          ) : null}
          {outcome?.ok ? <ImportSummary result={outcome.result} /> : null}
          {failure ? <ImportFailure failure={failure} /> : null}
        </div>
      </section>
      <section aria-labelledby="mcp-instances-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="mcp-instances-title" className="text-lg font-semibold">
          Imported servers
        </h2>
        {instances.length === 0 ? (
          <EmptyState title="No MCP server imported yet">
            Fill in a name and the server&apos;s HTTP endpoint, then Import tools: each tool the server lists becomes a
            tool of the group <code className="font-mono">mcp:&lt;name&gt;</code>, which agents can allow like any
            other.
          </EmptyState>
        ) : (
          <InstanceList instances={instances} onReimport={reimport} busy={pending} />
        )}
      </section>
    </div>
  );
}
