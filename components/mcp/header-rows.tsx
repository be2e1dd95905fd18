"use client";
import { Button } from "@/components/ui/button";
import { monoInputClass } from "@/components/ui/field";

export interface HeaderRow {
  id: number;
  key: string;
  value: string;
}

/** Key/value rows for the headers sent to the MCP server (discovery and every call). */
export function HeaderRows({
  rows,
  onChange,
  disabled,
}: {
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  disabled?: boolean;
}) {
  const set = (id: number, patch: Partial<HeaderRow>) =>
    onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  const add = () => onChange([...rows, { id: Math.max(0, ...rows.map((r) => r.id)) + 1, key: "", value: "" }]);
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium">Headers</legend>
      {rows.length === 0 ? (
        <p className="text-xs text-zinc-500">No headers: the server is called without credentials.</p>
      ) : null}
      <ul className="flex flex-col gap-2">
        {rows.map((r, i) => (
          <li
            key={r.id}
            data-testid="mcp-header-row"
            className="grid grid-cols-[1fr_auto] gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto]"
          >
            <input
              aria-label={`Header ${i + 1} name`}
              placeholder="Authorization"
              autoComplete="off"
              spellCheck={false}
              className={monoInputClass}
              value={r.key}
              onChange={(e) => set(r.id, { key: e.target.value })}
            />
            <input
              aria-label={`Header ${i + 1} value`}
              placeholder="Bearer {{secret.mcp_token}}"
              autoComplete="off"
              spellCheck={false}
              className={`${monoInputClass} col-start-1 sm:col-start-auto`}
              value={r.value}
              onChange={(e) => set(r.id, { value: e.target.value })}
            />
            <Button
              variant="secondary"
              className="col-start-2 row-span-2 row-start-1 self-start sm:row-span-1 sm:col-start-auto"
              aria-label={`Remove header ${i + 1}`}
              onClick={() => onChange(rows.filter((x) => x.id !== r.id))}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <div>
        <Button variant="secondary" onClick={add}>
          Add header
        </Button>
      </div>
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        Values may reference a secret as <code className="font-mono">{"{{secret.NAME}}"}</code> (read from{" "}
        <code className="font-mono">INSIKA_SECRET_NAME</code> or the secrets directory); the tools store the reference,
        never the value.
      </p>
    </fieldset>
  );
}
