"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { importOpenApiAction } from "@/app/(studio)/openapi/actions";
import type { ImportOpenApiResult } from "@/lib/services/openapi/import-openapi";

export interface OpenApiImportForm {
  name: string;
  /** "url": fetch `url`; "document": send `document` (pasted JSON or YAML). */
  source: "url" | "document";
  url: string;
  document: string;
  server: string;
  /** One operation per line (operationId, tool name or `METHOD /path`). */
  operations: string;
  /** One `scheme=secret` per line. */
  auth: string;
}

export type OpenApiOutcome =
  { ok: true; result: ImportOpenApiResult } | { ok: false; code: string; error: string; details?: unknown };

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

/** The form's fields -> the import body (empty optional fields left out; the server names any problem). */
export function importBody(form: OpenApiImportForm): Record<string, unknown> {
  const body: Record<string, unknown> = { name: form.name.trim() };
  if (form.source === "url") body.url = form.url.trim();
  else body.document = form.document;
  if (form.server.trim()) body.server = form.server.trim();
  const operations = lines(form.operations);
  if (operations.length) body.operations = operations;
  const auth = lines(form.auth);
  if (auth.length)
    body.auth = Object.fromEntries(
      auth.map((l) => [l.split("=")[0]?.trim() ?? "", l.split("=").slice(1).join("=").trim()]),
    );
  return body;
}

/** The form's state and running an import. */
export function useOpenApiImport() {
  const router = useRouter();
  const [form, setForm] = useState<OpenApiImportForm>({
    name: "",
    source: "url",
    url: "",
    document: "",
    server: "",
    operations: "",
    auth: "",
  });
  const [outcome, setOutcome] = useState<OpenApiOutcome | null>(null);
  const [pending, start] = useTransition();
  const submit = () => {
    setOutcome(null);
    start(async () => {
      const r = await importOpenApiAction(importBody(form));
      setOutcome(
        r.ok ? { ok: true, result: r.value } : { ok: false, code: r.code, error: r.error, details: r.details },
      );
      if (r.ok) router.refresh();
    });
  };
  return { form, setForm, outcome, pending, submit };
}
