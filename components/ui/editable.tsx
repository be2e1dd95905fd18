"use client";
import { createContext, useContext, type ReactNode } from "react";

const ReadOnly = createContext(false);

/** True inside an <Editable> whose key may not change what it wraps (e.g. for Monaco, which a fieldset cannot disable). */
export const useReadOnly = () => useContext(ReadOnly);

/**
 * Wraps an editor: when `readOnly` names why the key may not change it, one line says so and
 * every control inside is disabled (a disabled fieldset); the server actions refuse anyway.
 */
export function Editable({ readOnly, children }: { readOnly: string | null; children: ReactNode }) {
  if (!readOnly) return <>{children}</>;
  return (
    <ReadOnly.Provider value>
      <p
        role="note"
        data-testid="read-only-notice"
        className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
      >
        {readOnly}
      </p>
      <fieldset disabled data-read-only="true" className="m-0 min-w-0 border-0 p-0">
        {children}
      </fieldset>
    </ReadOnly.Provider>
  );
}
