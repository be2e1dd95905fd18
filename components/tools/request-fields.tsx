"use client";
import { Field, inputClass, monoInputClass } from "@/components/ui/field";
import { HTTP_METHODS, EXTRACT_KINDS } from "@/lib/tools/types";
import { EgressVerdict } from "./egress-verdict";
import type { ToolForm } from "./tool-form";

interface Props {
  form: ToolForm;
  errors: (field: keyof ToolForm) => string[];
  set: <K extends keyof ToolForm>(key: K, value: ToolForm[K]) => void;
}

type TextKey = "headers" | "query" | "body" | "secretHeaders" | "path";

/** The HTTP request (method, URL with its egress verdict, headers, query, body) and how the response is shaped. */
export function RequestFields({ form, errors, set }: Props) {
  const text = (key: TextKey, label: string, hint: string, rows = 0) => (
    <Field id={`tool-${key}`} label={label} errors={errors(key)} hint={hint}>
      {rows > 0 ? (
        <textarea
          id={`tool-${key}`}
          rows={rows}
          spellCheck={false}
          className={monoInputClass}
          value={form[key]}
          aria-invalid={errors(key).length > 0}
          onChange={(e) => set(key, e.target.value)}
        />
      ) : (
        <input
          id={`tool-${key}`}
          className={monoInputClass}
          value={form[key]}
          aria-invalid={errors(key).length > 0}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );
  return (
    <fieldset className="grid gap-3 rounded border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">Request</legend>
      <div className="grid gap-3 sm:col-span-2 sm:grid-cols-[8rem_1fr]">
        <Field id="tool-method" label="Method" errors={errors("method")}>
          <select
            id="tool-method"
            className={inputClass}
            value={form.method}
            onChange={(e) => set("method", e.target.value)}
          >
            {HTTP_METHODS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </Field>
        <Field
          id="tool-url"
          label="URL"
          errors={errors("url")}
          hint="A literal http(s) URL; {{param}} and {{ctx.*}} may fill the path and query."
        >
          <input
            id="tool-url"
            className={monoInputClass}
            value={form.url}
            aria-invalid={errors("url").length > 0}
            aria-describedby="egress-verdict"
            onChange={(e) => set("url", e.target.value)}
          />
          <EgressVerdict url={form.url} />
        </Field>
      </div>
      {text("headers", "Headers", "One per line: Name: value. {{secret.*}} only in a header listed below.", 3)}
      {text("query", "Query", "One per line: name: value (e.g. q: {{query}}).", 3)}
      {text(
        "secretHeaders",
        "Secret headers (comma-separated)",
        "Masked in traces; the only place {{secret.*}} may appear.",
      )}
      <div className="grid grid-cols-2 gap-3">
        <Field id="tool-extract" label="Response" errors={errors("extract")}>
          <select
            id="tool-extract"
            className={inputClass}
            value={form.extract}
            onChange={(e) => set("extract", e.target.value)}
          >
            {EXTRACT_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </Field>
        {form.extract === "json_path" ? text("path", "Path", "e.g. $.results") : null}
      </div>
      <div className="sm:col-span-2">
        {text(
          "body",
          "Body (JSON template)",
          'Leave empty for no body. "{{p}}" alone takes the argument\'s JSON value.',
          4,
        )}
      </div>
    </fieldset>
  );
}
