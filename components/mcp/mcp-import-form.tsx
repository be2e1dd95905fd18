"use client";
import { Button } from "@/components/ui/button";
import { Field, inputClass, monoInputClass } from "@/components/ui/field";
import { HeaderRows } from "./header-rows";
import { OAuthFields } from "./oauth-fields";
import type { McpImportForm } from "./use-mcp-import";

interface Props {
  form: McpImportForm;
  onChange: (form: McpImportForm) => void;
  onSubmit: () => void;
  pending: boolean;
  /** Field errors from a refused import, by field. */
  errors: { name?: string[]; url?: string[] };
}

/** Name, URL and headers of an HTTP MCP server; submitting imports its tools. */
export function McpImportFormView({ form, onChange, onSubmit, pending, errors }: Props) {
  return (
    <form
      aria-label="Import an MCP server"
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) onSubmit();
      }}
    >
      <Field
        id="mcp-name"
        label="Name"
        hint={
          <>
            The instance name: tools join the group <code className="font-mono">mcp:{form.name || "<name>"}</code>. Use
            a-z, 0-9, _ and -.
          </>
        }
        errors={errors.name}
      >
        <input
          id="mcp-name"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={errors.name?.length ? true : undefined}
          className={inputClass}
          placeholder="github"
          value={form.name}
          disabled={pending}
          onChange={(e) => onChange({ ...form, name: e.target.value })}
        />
      </Field>
      <Field
        id="mcp-url"
        label="URL"
        hint="The server's Streamable HTTP endpoint. Only HTTP-transport servers can be imported (no stdio commands); the egress rules apply."
        errors={errors.url}
      >
        <input
          id="mcp-url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={errors.url?.length ? true : undefined}
          className={monoInputClass}
          placeholder="https://mcp.example.com/mcp"
          value={form.url}
          disabled={pending}
          onChange={(e) => onChange({ ...form, url: e.target.value })}
        />
      </Field>
      <HeaderRows rows={form.headers} disabled={pending} onChange={(headers) => onChange({ ...form, headers })} />
      <OAuthFields value={form.oauth} disabled={pending} onChange={(oauth) => onChange({ ...form, oauth })} />
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending || !form.name.trim() || !form.url.trim()}>
          {pending ? "Importing…" : "Import tools"}
        </Button>
      </div>
    </form>
  );
}
