"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { saveAgentAction } from "@/app/(studio)/agents/actions";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { agentProblems, fromAgentForm, toAgentForm, type AgentFormState } from "./agent-form-model";

const PROVIDERS = ["demo", "openai-compatible", "openai", "anthropic"];

/** Agent settings: instructions, model, limits. The tool policy lives in the Tools tab. */
export function AgentForm({ id, stored }: { id: string | null; stored: Record<string, unknown> | null }) {
  const [form, setForm] = useState<AgentFormState>(() => toAgentForm(id ?? "", stored));
  const [problems, setProblems] = useState<Map<string, string[]>>(new Map());
  const [saved, setSaved] = useState(false);
  const [pending, start] = useTransition();
  const router = useRouter();
  const set = (key: keyof AgentFormState, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setSaved(false);
  };
  const input = (key: keyof AgentFormState, label: string, hint?: string, type = "text") => (
    <Field id={`agent-${key}`} label={label} hint={hint} errors={problems.get(key)}>
      <input
        id={`agent-${key}`}
        type={type}
        className={inputClass}
        value={form[key]}
        readOnly={key === "id" && id !== null}
        aria-invalid={problems.has(key)}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    start(async () => {
      const r = await saveAgentAction(form.id.trim(), fromAgentForm(form, stored));
      setProblems(r.ok ? new Map() : agentProblems(r.error));
      if (!r.ok) return;
      setSaved(true);
      if (id === null) router.push(`/agents/${encodeURIComponent(r.value)}?tab=tools`);
      else router.refresh();
    });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Agent settings">
      <fieldset className="grid gap-3 rounded border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800">
        <legend className="px-1 text-sm font-semibold">Agent</legend>
        {input("id", "Id", "Letters, digits, _ . -; used in URLs and as the OpenAI model name.")}
        {input("name", "Name")}
        <Field
          id="agent-instructions"
          label="Instructions"
          errors={problems.get("instructions")}
          className="sm:col-span-2"
        >
          <textarea
            id="agent-instructions"
            rows={5}
            className={inputClass}
            value={form.instructions}
            onChange={(e) => set("instructions", e.target.value)}
          />
        </Field>
        {input("store_id", "Store id (ctx.store_id)")}
      </fieldset>
      <fieldset className="grid gap-3 rounded border border-zinc-200 p-4 sm:grid-cols-2 dark:border-zinc-800">
        <legend className="px-1 text-sm font-semibold">Model</legend>
        <Field id="agent-provider" label="Provider" errors={problems.get("provider")}>
          <select
            id="agent-provider"
            className={inputClass}
            value={form.provider}
            onChange={(e) => set("provider", e.target.value)}
          >
            {[...new Set([...PROVIDERS, form.provider])].map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </Field>
        {input("model", "Model")}
        {input("base_url", "Base URL", "Required for openai-compatible (Ollama, vLLM, llama.cpp...).")}
        {input("api_key_secret", "API key secret name", "The name of a provisioned secret, never the key itself.")}
        <Field
          id="agent-strict"
          label="Strict mode"
          hint="On: each tool's schema is compiled to what the provider accepts (e.g. OpenAI strict) when sent; the stored schema stays yours."
        >
          <select
            id="agent-strict"
            className={inputClass}
            value={form.strict}
            onChange={(e) => set("strict", e.target.value)}
          >
            <option value="off">off</option>
            <option value="on">on</option>
          </select>
        </Field>
      </fieldset>
      <fieldset className="grid gap-3 rounded border border-zinc-200 p-4 sm:grid-cols-5 dark:border-zinc-800">
        <legend className="px-1 text-sm font-semibold">Limits</legend>
        {input("tool_concurrency", "Tool concurrency", "1 = serial", "number")}
        {input("max_tool_calls", "Max tool calls", undefined, "number")}
        {input("turn_timeout", "Turn timeout (s)", undefined, "number")}
        {input("tool_timeout", "Tool timeout (s)", undefined, "number")}
        {input("max_subagent_turns", "Max subagent turns", "Child turns per turn, descendants included", "number")}
      </fieldset>
      {problems.get("general") ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problems.get("general")!.join("; ")}
        </p>
      ) : null}
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : id === null ? "Create agent" : "Save"}
        </Button>
        {saved ? (
          <span role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
            Saved.
          </span>
        ) : null}
      </div>
    </form>
  );
}
