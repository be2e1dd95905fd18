"use client";
import { Button } from "@/components/ui/button";
import { Field, inputClass, monoInputClass } from "@/components/ui/field";
import type { OpenApiImportForm } from "./use-openapi-import";

interface Props {
  form: OpenApiImportForm;
  onChange: (form: OpenApiImportForm) => void;
  onSubmit: () => void;
  pending: boolean;
}

/** Name, the document (a URL or pasted text), and the optional server, operations and secret names. */
export function OpenApiImportFormView({ form, onChange, onSubmit, pending }: Props) {
  const set = (patch: Partial<OpenApiImportForm>) => onChange({ ...form, ...patch });
  const ready =
    form.name.trim() !== "" && (form.source === "url" ? form.url.trim() !== "" : form.document.trim() !== "");
  return (
    <form
      aria-label="Import an OpenAPI document"
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) onSubmit();
      }}
    >
      <Field
        id="openapi-name"
        label="Name"
        hint={
          <>
            Tools join the group <code className="font-mono">openapi:{form.name || "<name>"}</code>. Use a-z, 0-9, _ and
            -.
          </>
        }
      >
        <input
          id="openapi-name"
          autoComplete="off"
          spellCheck={false}
          className={inputClass}
          placeholder="petstore"
          value={form.name}
          disabled={pending}
          onChange={(e) => set({ name: e.target.value })}
        />
      </Field>
      <fieldset className="flex gap-4 text-sm" disabled={pending}>
        <legend className="sr-only">Where the document comes from</legend>
        {(["url", "document"] as const).map((source) => (
          <label key={source} className="flex items-center gap-1.5">
            <input
              type="radio"
              name="openapi-source"
              value={source}
              checked={form.source === source}
              onChange={() => set({ source })}
            />
            {source === "url" ? "Fetch from a URL" : "Paste the document"}
          </label>
        ))}
      </fieldset>
      {form.source === "url" ? (
        <Field
          id="openapi-url"
          label="Document URL"
          hint="Fetched through the egress guard (loopback and private addresses need INSIKA_EGRESS_*); $refs to other files or URLs are never fetched."
        >
          <input
            id="openapi-url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            className={monoInputClass}
            placeholder="https://api.example.com/openapi.json"
            value={form.url}
            disabled={pending}
            onChange={(e) => set({ url: e.target.value })}
          />
        </Field>
      ) : (
        <Field id="openapi-document" label="Document (JSON or YAML)">
          <textarea
            id="openapi-document"
            rows={10}
            spellCheck={false}
            className={monoInputClass}
            placeholder="openapi: 3.1.0"
            value={form.document}
            disabled={pending}
            onChange={(e) => set({ document: e.target.value })}
          />
        </Field>
      )}
      <Field
        id="openapi-server"
        label="Server (optional)"
        hint="Replaces the document's server URL, whole (needed when the document has none or a relative one)."
      >
        <input
          id="openapi-server"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          className={monoInputClass}
          placeholder="https://api.example.com/v1"
          value={form.server}
          disabled={pending}
          onChange={(e) => set({ server: e.target.value })}
        />
      </Field>
      <Field
        id="openapi-operations"
        label="Operations (optional)"
        hint="One per line: an operationId, a tool name or METHOD /path. Empty: every operation."
      >
        <textarea
          id="openapi-operations"
          rows={3}
          spellCheck={false}
          className={monoInputClass}
          placeholder={"getPetById\nPOST /pet"}
          value={form.operations}
          disabled={pending}
          onChange={(e) => set({ operations: e.target.value })}
        />
      </Field>
      <Field
        id="openapi-auth"
        label="Secret names (optional)"
        hint="One scheme=secret per line; by default a scheme's secret is <name>_<scheme>."
      >
        <textarea
          id="openapi-auth"
          rows={2}
          spellCheck={false}
          className={monoInputClass}
          placeholder="api_key=petstore_key"
          value={form.auth}
          disabled={pending}
          onChange={(e) => set({ auth: e.target.value })}
        />
      </Field>
      <div>
        <Button type="submit" disabled={pending || !ready}>
          {pending ? "Importing…" : "Import operations"}
        </Button>
      </div>
    </form>
  );
}
