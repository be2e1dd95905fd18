"use client";
import { useState } from "react";
import { JsonEditor } from "@/components/ui/json-editor";
import { Field, monoInputClass } from "@/components/ui/field";
import { parseFlatSugar, toFlatSugar } from "@/lib/tools/flat-sugar";

interface Props {
  mode: "flat" | "json";
  text: string;
  errors: string[];
  onChange: (mode: "flat" | "json", text: string) => void;
}

/** Why the JSON text cannot become flat sugar, or null when it can. */
function flatBlocker(text: string): string | null {
  try {
    return toFlatSugar(JSON.parse(text)) === null
      ? "this schema uses more than the flat form can say (nested objects, lists of objects, extra keywords)"
      : null;
  } catch {
    return "the JSON does not parse";
  }
}

/** Parameters: flat sugar in a textarea or JSON Schema in Monaco, switching when the schema allows. */
export function ParamsField({ mode, text, errors, onChange }: Props) {
  const [switchError, setSwitchError] = useState<string | null>(null);
  const blocker = mode === "json" ? flatBlocker(text) : null;

  const toJson = () => {
    const parsed = parseFlatSugar(text);
    if (!parsed.ok) return setSwitchError(`Fix the flat form first: ${parsed.error}`);
    setSwitchError(null);
    onChange("json", JSON.stringify(parsed.schema, null, 2));
  };
  const toFlat = () => {
    const flat = toFlatSugar(JSON.parse(text));
    if (flat !== null) onChange("flat", flat);
  };

  return (
    <Field
      id="tool-parameters"
      label="Parameters"
      errors={[...(switchError ? [switchError] : []), ...errors]}
      hint={
        mode === "flat"
          ? "One line per parameter: name | type | required|optional | description. Types: string, number, integer, boolean, array:<scalar>."
          : "JSON Schema (safe subset: object, array, string, number, integer, boolean; no oneOf/anyOf/allOf/$ref/if)."
      }
    >
      <div role="group" aria-label="Parameters format" className="flex flex-wrap items-center gap-2 text-xs">
        <button
          type="button"
          onClick={toFlat}
          disabled={mode === "flat" || blocker !== null}
          aria-pressed={mode === "flat"}
          title={blocker ?? undefined}
          className="rounded border border-zinc-300 px-2 py-0.5 aria-pressed:bg-zinc-900 aria-pressed:text-white disabled:opacity-60 dark:border-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
        >
          Flat form
        </button>
        <button
          type="button"
          onClick={toJson}
          disabled={mode === "json"}
          aria-pressed={mode === "json"}
          className="rounded border border-zinc-300 px-2 py-0.5 aria-pressed:bg-zinc-900 aria-pressed:text-white disabled:opacity-60 dark:border-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
        >
          JSON Schema
        </button>
        {mode === "json" && blocker ? <span className="text-zinc-500">Flat form unavailable: {blocker}</span> : null}
      </div>
      {mode === "flat" ? (
        <textarea
          id="tool-parameters"
          rows={5}
          spellCheck={false}
          value={text}
          aria-invalid={errors.length > 0}
          onChange={(e) => onChange("flat", e.target.value)}
          className={monoInputClass}
        />
      ) : (
        <JsonEditor
          id="tool-parameters"
          ariaLabel="Parameters JSON Schema"
          value={text}
          invalid={errors.length > 0}
          onChange={(v) => onChange("json", v)}
        />
      )}
    </Field>
  );
}
