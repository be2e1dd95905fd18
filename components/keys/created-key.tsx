"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";

/** A new key's value, shown once: a copy button and the warning that it will not be shown again. */
export function CreatedKey({ name, value, onDone }: { name: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied.");
    } catch {
      setCopied("The browser refused the clipboard: select the value and copy it.");
    }
  };
  return (
    <div
      role="status"
      data-testid="created-key"
      className="flex flex-col gap-2 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-800 dark:bg-emerald-950"
    >
      <p className="font-medium">Key “{name}” created.</p>
      <p className="text-amber-900 dark:text-amber-200">
        Copy it now: this is the only time its value is shown. Insika keeps only a hash of it.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <code
          data-testid="created-key-value"
          className="min-w-0 select-all break-all rounded bg-white px-2 py-1 font-mono text-xs dark:bg-zinc-900"
        >
          {value}
        </code>
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Done (hide it)
        </Button>
        <span className="text-xs">{copied}</span>
      </div>
    </div>
  );
}
