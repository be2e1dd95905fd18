"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { importMcpAction } from "@/app/(studio)/mcp/actions";
import type { ImportMcpResult } from "@/lib/services/mcp/import-mcp-server";
import type { McpInstanceRow } from "@/lib/services/mcp/mcp-page";
import type { HeaderRow } from "./header-rows";
import { EMPTY_OAUTH, type OAuthForm } from "./oauth-fields";
import type { ImportFailureInfo } from "./import-failure";

export interface McpImportForm {
  name: string;
  url: string;
  headers: HeaderRow[];
  oauth: OAuthForm;
}

export type ImportOutcome = { ok: true; result: ImportMcpResult } | { ok: false; failure: ImportFailureInfo };

const toRows = (headers: Record<string, string>): HeaderRow[] =>
  Object.entries(headers).map(([key, value], i) => ({ id: i + 1, key, value }));

/** The import form's state, and running an import (from the form, or a re-import of a listed instance). */
export function useMcpImport() {
  const router = useRouter();
  const [form, setForm] = useState<McpImportForm>({ name: "", url: "", headers: [], oauth: EMPTY_OAUTH });
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [pending, start] = useTransition();

  const run = (next: McpImportForm) => {
    setForm(next);
    setOutcome(null);
    setRunning(next.url);
    // Rows with neither name nor value are left out; a half-filled row goes to the server, which names the problem.
    const headers = Object.fromEntries(
      next.headers.filter((h) => h.key.trim() || h.value).map((h) => [h.key.trim(), h.value]),
    );
    start(async () => {
      const r = await importMcpAction({
        name: next.name.trim(),
        url: next.url.trim(),
        ...(Object.keys(headers).length ? { headers } : {}),
        ...(next.oauth.clientId.trim()
          ? {
              auth: {
                type: "oauth_client_credentials" as const,
                client_id: next.oauth.clientId.trim(),
                client_secret: next.oauth.clientSecret.trim(),
                ...(next.oauth.scope.trim() ? { scope: next.oauth.scope.trim() } : {}),
              },
            }
          : {}),
      });
      setOutcome(
        r.ok
          ? { ok: true, result: r.value }
          : { ok: false, failure: { code: r.code, error: r.error, details: r.details } },
      );
      setRunning(null);
      if (r.ok) router.refresh();
    });
  };

  const reimport = (instance: McpInstanceRow) =>
    run({
      name: instance.name,
      url: instance.url,
      headers: toRows(instance.headers),
      oauth:
        instance.auth.kind === "oauth_client_credentials"
          ? {
              clientId: instance.auth.client_id,
              clientSecret: instance.auth.client_secret,
              scope: instance.auth.scope ?? "",
            }
          : EMPTY_OAUTH,
    });

  return { form, setForm, outcome, pending, running, submit: () => run(form), reimport };
}
