"use client";
import { Field, monoInputClass } from "@/components/ui/field";

export interface OAuthForm {
  clientId: string;
  /** A secret reference, `{{secret.NAME}}` (the value is provisioned on the server, never typed here). */
  clientSecret: string;
  scope: string;
}

export const EMPTY_OAUTH: OAuthForm = { clientId: "", clientSecret: "", scope: "" };

/** OAuth 2.1 client credentials for a protected server: empty client id = none. */
export function OAuthFields({
  value,
  onChange,
  disabled,
}: {
  value: OAuthForm;
  onChange: (value: OAuthForm) => void;
  disabled: boolean;
}) {
  const input = (id: string, key: keyof OAuthForm, placeholder: string) => (
    <input
      id={id}
      autoComplete="off"
      spellCheck={false}
      className={monoInputClass}
      placeholder={placeholder}
      value={value[key]}
      disabled={disabled}
      onChange={(e) => onChange({ ...value, [key]: e.target.value })}
    />
  );
  return (
    <fieldset className="flex flex-col gap-3 rounded border border-zinc-200 p-3 dark:border-zinc-800">
      <legend className="px-1 text-sm font-medium">OAuth client credentials (optional)</legend>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        For a protected server: the token endpoint is found through the server&apos;s metadata; access tokens stay in
        memory, are refreshed on 401 and are never stored or traced.
      </p>
      <Field id="mcp-oauth-client-id" label="Client ID">
        {input("mcp-oauth-client-id", "clientId", "insika-gateway")}
      </Field>
      <Field id="mcp-oauth-client-secret" label="Client secret" hint="A secret reference, provisioned on the server.">
        {input("mcp-oauth-client-secret", "clientSecret", "{{secret.mcp_client_secret}}")}
      </Field>
      <Field id="mcp-oauth-scope" label="Scope">
        {input("mcp-oauth-scope", "scope", "tools:read")}
      </Field>
    </fieldset>
  );
}
