"use client";
import { Field, inputClass, monoInputClass } from "@/components/ui/field";
import type { ToolForm } from "./tool-form";

interface Props {
  form: ToolForm;
  errors: (field: keyof ToolForm) => string[];
  set: <K extends keyof ToolForm>(key: K, value: ToolForm[K]) => void;
}

/** halt_when and its say: end the turn on a matching 2xx response, and what to publish then. */
export function HaltFields({ form, errors, set }: Props) {
  return (
    <fieldset className="flex flex-col gap-3 rounded border border-zinc-200 p-4 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">Halt when</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={form.halt} onChange={(e) => set("halt", e.target.checked)} />
        End the turn when the response matches (the backend already told the customer)
      </label>
      {form.halt ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            id="tool-halt-path"
            label="JSON path"
            errors={errors("haltPath")}
            hint="Into the parsed response body, e.g. tool_result.status"
          >
            <input
              id="tool-halt-path"
              className={monoInputClass}
              value={form.haltPath}
              onChange={(e) => set("haltPath", e.target.value)}
              aria-invalid={errors("haltPath").length > 0}
            />
          </Field>
          <Field
            id="tool-halt-equals"
            label="Equals (comma-separated)"
            errors={errors("haltEquals")}
            hint="Compared as strings; only a 2xx response can match."
          >
            <input
              id="tool-halt-equals"
              className={monoInputClass}
              value={form.haltEquals}
              onChange={(e) => set("haltEquals", e.target.value)}
              aria-invalid={errors("haltEquals").length > 0}
            />
          </Field>
          <Field id="tool-say-mode" label="Say (when the model wrote no lead-in)" errors={[]}>
            <select
              id="tool-say-mode"
              className={inputClass}
              value={form.sayMode}
              onChange={(e) => set("sayMode", e.target.value as ToolForm["sayMode"])}
            >
              <option value="none">Nothing (publish empty)</option>
              <option value="json_path">The backend&apos;s own sentence (a JSON path)</option>
              <option value="text">A literal the channel resolves</option>
            </select>
          </Field>
          {form.sayMode !== "none" ? (
            <Field id="tool-say" label={form.sayMode === "text" ? "Say text" : "Say JSON path"} errors={errors("say")}>
              <input
                id="tool-say"
                className={monoInputClass}
                value={form.say}
                onChange={(e) => set("say", e.target.value)}
                aria-invalid={errors("say").length > 0}
              />
            </Field>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
