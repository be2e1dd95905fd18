import type { ReactNode } from "react";

/** Styling shared by every form control of the Studio; `controlClass` sizes to its content (inline selects). */
export const controlClass =
  "rounded border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-sm outline-none focus:border-sky-500 focus:ring-2 focus:ring-sky-500/30 aria-[invalid=true]:border-red-500 disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 dark:border-zinc-700 dark:bg-zinc-900 dark:disabled:bg-zinc-950";

export const inputClass = `${controlClass} w-full`;

export const monoInputClass = `${inputClass} font-mono text-[13px]`;

/**
 * A labelled form field: the label, the control, a hint, and the validator's
 * errors for this field (announced to screen readers as an alert region).
 */
export function Field(props: {
  id: string;
  label: string;
  hint?: ReactNode;
  errors?: string[];
  children: ReactNode;
  className?: string;
}) {
  const errors = props.errors ?? [];
  return (
    <div className={`flex flex-col gap-1 ${props.className ?? ""}`}>
      <label htmlFor={props.id} className="text-sm font-medium">
        {props.label}
      </label>
      {props.children}
      {props.hint ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{props.hint}</p> : null}
      {errors.length > 0 ? (
        <ul
          id={`${props.id}-errors`}
          data-field-errors={props.id}
          role="alert"
          className="flex flex-col gap-0.5 text-xs text-red-700 dark:text-red-400"
        >
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
