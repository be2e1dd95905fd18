"use client";
import { Field, inputClass } from "@/components/ui/field";
import type { ToolForm } from "./tool-form";

interface Props {
  form: ToolForm;
  isNew: boolean;
  errors: (field: keyof ToolForm) => string[];
  set: <K extends keyof ToolForm>(key: K, value: ToolForm[K]) => void;
}

/** Name, description, group, tags, side effect and timeout. */
export function BasicsFields({ form, isNew, errors, set }: Props) {
  const input = (key: "name" | "group" | "tags" | "timeout", label: string, hint?: string) => (
    <Field id={`tool-${key}`} label={label} errors={errors(key)} hint={hint}>
      <input
        id={`tool-${key}`}
        className={inputClass}
        value={form[key]}
        readOnly={key === "name" && !isNew}
        inputMode={key === "timeout" ? "decimal" : undefined}
        aria-invalid={errors(key).length > 0}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );
  return (
    <fieldset className="grid gap-3 rounded border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800">
      <legend className="px-1 text-sm font-semibold">Tool</legend>
      {input(
        "name",
        "Name",
        isNew
          ? "Lowercase letters, digits and _; starts with a letter."
          : "The name is the tool's identity; it cannot change.",
      )}
      {input("group", "Group", "Agents can allow a whole group at once.")}
      <Field
        id="tool-description"
        label="Description"
        errors={errors("description")}
        hint="What the model reads to decide when to call the tool."
        className="sm:col-span-2"
      >
        <textarea
          id="tool-description"
          rows={2}
          className={inputClass}
          value={form.description}
          aria-invalid={errors("description").length > 0}
          onChange={(e) => set("description", e.target.value)}
        />
      </Field>
      {input("tags", "Tags (comma-separated)")}
      <div className="grid grid-cols-2 gap-3">
        <Field id="tool-side-effect" label="Side effect" errors={errors("sideEffect")}>
          <select
            id="tool-side-effect"
            className={inputClass}
            value={form.sideEffect}
            onChange={(e) => set("sideEffect", e.target.value as ToolForm["sideEffect"])}
          >
            <option value="auto">From the method</option>
            <option value="true">Yes (never re-run)</option>
            <option value="false">No (safe to re-run)</option>
          </select>
        </Field>
        {input("timeout", "Timeout (s)", "Default 30, at most 300.")}
      </div>
    </fieldset>
  );
}
