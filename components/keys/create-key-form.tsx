"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { createKeyAction } from "@/app/(studio)/keys/actions";
import { Button } from "@/components/ui/button";
import { Field, controlClass, inputClass } from "@/components/ui/field";
import { SCOPES, SCOPE_DESCRIPTIONS, type Scope } from "@/lib/access/scopes";
import { CreatedKey } from "./created-key";

const EMPTY = { name: "", tenant: "", expiresOn: "", turnsPerMinute: "" };

/** The form that creates a key; the new value is shown once, above the form. */
export function CreateKeyForm({ agents }: { agents: { id: string; name: string }[] }) {
  const [fields, setFields] = useState(EMPTY);
  const [scopes, setScopes] = useState<Scope[]>(["turns:run"]);
  const [picked, setPicked] = useState<string[]>([]);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  // createKey refuses an agent list on any scope but turns:run (it would promise a limit nobody enforces).
  const agentsApply = scopes.length > 0 && scopes.every((s) => s === "turns:run");
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setFields({ ...fields, [k]: e.target.value });
  const toggle = (s: Scope) => setScopes(scopes.includes(s) ? scopes.filter((x) => x !== s) : [...scopes, s]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    start(async () => {
      const r = await createKeyAction({ ...fields, scopes, agents: agentsApply ? picked : [] });
      if (!r.ok) return setError(r.error);
      setError(null);
      setCreated({ name: r.value.name, key: r.value.key });
      setFields(EMPTY);
      setPicked([]);
      router.refresh();
    });
  };

  return (
    <div className="flex flex-col gap-3">
      {created ? <CreatedKey name={created.name} value={created.key} onDone={() => setCreated(null)} /> : null}
      <form
        onSubmit={submit}
        aria-label="Create a key"
        className="grid gap-3 rounded border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800"
      >
        <Field id="key-name" label="Name" hint="Who or what uses it, e.g. “support chat UI”.">
          <input
            id="key-name"
            required
            maxLength={100}
            className={inputClass}
            value={fields.name}
            onChange={set("name")}
          />
        </Field>
        <Field
          id="key-tenant"
          label="Tenant (optional)"
          hint="Pins the key: it creates and reads only this tenant's sessions."
        >
          <input
            id="key-tenant"
            maxLength={200}
            className={inputClass}
            value={fields.tenant}
            onChange={set("tenant")}
          />
        </Field>
        <fieldset className="flex flex-col gap-1 sm:col-span-2">
          <legend className="text-sm font-medium">Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                name="scope"
                value={s}
                checked={scopes.includes(s)}
                onChange={() => toggle(s)}
                className="mt-1"
              />
              <span>
                <span className="font-mono">{s}</span> <span className="text-zinc-500">— {SCOPE_DESCRIPTIONS[s]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field
          id="key-agents"
          label="Agents (optional)"
          hint={
            agentsApply
              ? "None selected: every agent. Ctrl/Cmd-click to pick several."
              : "Only a key whose one scope is turns:run can be limited to agents."
          }
        >
          <select
            id="key-agents"
            multiple
            disabled={!agentsApply}
            className={`${controlClass} min-h-24`}
            value={picked}
            onChange={(e) => setPicked([...e.target.selectedOptions].map((o) => o.value))}
          >
            {agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </Field>
        <div className="flex flex-col gap-3">
          <Field
            id="key-expires"
            label="Expires on (optional, UTC)"
            hint="The key stops working at the start of that day."
          >
            <input
              id="key-expires"
              type="date"
              className={inputClass}
              value={fields.expiresOn}
              onChange={set("expiresOn")}
            />
          </Field>
          <Field id="key-rate" label="Turns per minute (optional)" hint="Blank: no limit.">
            <input
              id="key-rate"
              inputMode="numeric"
              className={inputClass}
              value={fields.turnsPerMinute}
              onChange={set("turnsPerMinute")}
            />
          </Field>
        </div>
        <div className="flex items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={pending || !fields.name.trim() || scopes.length === 0}>
            {pending ? "Creating…" : "Create key"}
          </Button>
          {error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          ) : null}
        </div>
      </form>
    </div>
  );
}
