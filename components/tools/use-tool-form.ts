"use client";
import { useMemo, useState } from "react";
import { validateToolDefinition } from "@/lib/tools/validate-definition";
import { byField, placeProblems } from "./field-problems";
import { fromForm, toForm, type FieldKey, type FormProblem, type Stored, type ToolForm } from "./tool-form";

/**
 * The editor's state: the form, and the problems the API's own validator
 * (run here, in the browser, as you type) finds in what Save would send.
 * A field's problems show once it was edited or Save was pressed.
 */
export function useToolForm(stored: Stored | null, reservedNames: string[]) {
  const [form, setForm] = useState<ToolForm>(() => toForm(stored));
  const [touched, setTouched] = useState<ReadonlySet<FieldKey>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverProblems, setServerProblems] = useState<FormProblem[]>([]);
  const reserved = useMemo(() => new Set(reservedNames), [reservedNames]);

  const { definition, problems } = useMemo(() => {
    const built = fromForm(form, stored);
    const checked = validateToolDefinition(built.definition, { writePath: "api", reservedNames: reserved });
    return {
      definition: built.definition,
      problems: [...built.problems, ...(checked.ok ? [] : placeProblems(checked.error))],
    };
  }, [form, stored, reserved]);

  const shown = useMemo(() => {
    const visible = problems.filter(
      (p) => submitted || touched.has(p.field) || (p.field === "general" && touched.size > 0),
    );
    return byField([...visible, ...serverProblems]);
  }, [problems, serverProblems, submitted, touched]);

  function set<K extends keyof ToolForm>(key: K, value: ToolForm[K]) {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((t) => (t.has(key) ? t : new Set([...t, key])));
    setServerProblems([]);
  }

  return {
    form,
    set,
    definition,
    problems,
    errors: (field: FieldKey) => shown.get(field) ?? [],
    submit: () => setSubmitted(true),
    setServerError: (message: string) => setServerProblems(placeProblems(message)),
  };
}
