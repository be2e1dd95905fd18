import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

export interface AuditFilterValues {
  target: string;
  actor: string;
  action: string;
  since: string;
}

/** A plain GET form: the filters live in the URL, so a filtered view can be linked to. */
export function AuditFilters({
  values,
  actions,
  actors,
}: {
  values: AuditFilterValues;
  actions: readonly string[];
  actors: { id: string; name: string }[];
}) {
  return (
    <form method="get" aria-label="Filter the audit log" className="grid items-end gap-3 sm:grid-cols-5">
      <Field id="audit-target" label="Target" hint="e.g. tool:lookup_cep, agent:support">
        <input id="audit-target" name="target" maxLength={500} className={inputClass} defaultValue={values.target} />
      </Field>
      <Field id="audit-actor" label="Actor key">
        <select id="audit-actor" name="actor" className={inputClass} defaultValue={values.actor}>
          <option value="">any</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.id})
            </option>
          ))}
        </select>
      </Field>
      <Field id="audit-action" label="Action">
        <select id="audit-action" name="action" className={inputClass} defaultValue={values.action}>
          <option value="">any</option>
          {actions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </Field>
      <Field id="audit-since" label="Since (UTC day)">
        <input id="audit-since" name="since" type="date" className={inputClass} defaultValue={values.since} />
      </Field>
      <div className="flex gap-2">
        <button type="submit" className={buttonClass()}>
          Filter
        </button>
        <Link href="/audit" className={buttonClass("secondary")}>
          Clear
        </Link>
      </div>
    </form>
  );
}
