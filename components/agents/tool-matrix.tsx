"use client";
import { useRouter } from "next/navigation";
import { useDeferredValue, useMemo, useState, useTransition } from "react";
import { savePolicyAction } from "@/app/(studio)/agents/actions";
import { useWindowed } from "@/components/tools/use-windowed";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { applyPolicy } from "@/lib/agents/policy";
import type { StudioPolicy } from "@/lib/services/agents/set-agent-policy";
import { MATRIX_COLUMNS, MatrixRow, type MatrixTool } from "./matrix-row";
import { OfferedSummary } from "./offered-summary";
import { allTools, setAllTools, toggle } from "./policy-edit";

const ROW = 44;

/** The per-agent tool matrix: allow, deny, allow by group, deferred, approvals, and what the model is offered as a result. */
export function ToolMatrix({
  agentId,
  tools,
  initial,
}: {
  agentId: string;
  tools: MatrixTool[];
  initial: StudioPolicy;
}) {
  const [policy, setPolicy] = useState(initial);
  // What is stored: the initial policy, then whatever this form saved (the form is not
  // remounted on save, so the "Saved" message survives the refresh).
  const [baseline, setBaseline] = useState(initial);
  const [search, setSearch] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const result = useMemo(() => applyPolicy(policy, tools), [policy, tools]);
  const groups = useMemo(
    () => [...new Set(tools.map((t) => t.group).filter((g): g is string => g !== null))].sort(),
    [tools],
  );
  const q = useDeferredValue(search.trim().toLowerCase());
  const shown = useMemo(
    () => (q ? tools.filter((t) => `${t.name} ${t.group ?? ""}`.toLowerCase().includes(q)) : tools),
    [tools, q],
  );
  const win = useWindowed(shown.length, ROW);
  const all = allTools(policy);
  const dirty = JSON.stringify(policy) !== JSON.stringify(baseline);

  const save = () =>
    start(async () => {
      const r = await savePolicyAction(agentId, policy);
      setMessage(r.ok ? { ok: true, text: "Saved: the next turn uses this policy." } : { ok: false, text: r.error });
      if (r.ok) {
        setBaseline(policy);
        router.refresh();
      }
    });

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_18rem]">
      <div className="flex min-w-0 flex-col gap-3">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={all} onChange={(e) => setPolicy(setAllTools(policy, e.target.checked))} />
          All tools (no allowlist): every catalog tool not denied is offered
        </label>
        <fieldset disabled={all} className="flex flex-wrap items-center gap-2 text-sm disabled:opacity-50">
          <legend className="mb-1 text-sm font-medium">Allow by group</legend>
          {groups.length === 0 ? <span className="text-zinc-500">No tool has a group yet.</span> : null}
          {groups.map((g) => (
            <label
              key={g}
              className="flex items-center gap-1 rounded border border-zinc-300 px-2 py-0.5 dark:border-zinc-700"
            >
              <input
                type="checkbox"
                checked={(policy.tools_allow_groups ?? []).includes(g)}
                onChange={(e) => setPolicy(toggle(policy, "tools_allow_groups", g, e.target.checked))}
              />
              {g}
            </label>
          ))}
        </fieldset>
        <input
          type="search"
          aria-label="Filter tools"
          placeholder="Filter tools by name or group"
          className={inputClass}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <div role="table" aria-label="Tool policy" className="rounded border border-zinc-200 dark:border-zinc-800">
          <div
            role="row"
            className={`${MATRIX_COLUMNS} h-9 border-b border-zinc-200 text-xs font-medium text-zinc-500 dark:border-zinc-800`}
          >
            <span role="columnheader">Tool</span>
            {[
              ["Allow", "Allow"],
              ["Deny", "Deny"],
              ["Defer", "Defer"],
              ["Approval", "Appr."],
              ["Result", "Result"],
            ].map(([h, short]) => (
              <span role="columnheader" key={h} title={h} className={h === "Result" ? "" : "text-center"}>
                <span className="sm:hidden">{short}</span>
                <span className="hidden sm:inline">{h}</span>
              </span>
            ))}
          </div>
          <div ref={win.ref} onScroll={win.onScroll} className="max-h-[55vh] overflow-y-auto">
            {shown.length === 0 ? <p className="p-4 text-sm text-zinc-500">No tool matches.</p> : null}
            <div style={{ height: win.padTop }} />
            {shown.slice(win.start, win.end).map((t) => (
              <MatrixRow
                key={t.name}
                tool={t}
                policy={policy}
                exposure={result.exposure.get(t.name)}
                all={all}
                height={ROW}
                onToggle={(key, name, on) => setPolicy((p) => toggle(p, key, name, on))}
              />
            ))}
            <div style={{ height: win.padBottom }} />
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={save} disabled={pending || !dirty}>
            {pending ? "Saving…" : "Save tool policy"}
          </Button>
          {dirty ? <span className="text-sm text-amber-700 dark:text-amber-400">Unsaved changes</span> : null}
          {message ? (
            <span
              role={message.ok ? "status" : "alert"}
              className={`text-sm ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}
            >
              {message.text}
            </span>
          ) : null}
        </div>
      </div>
      <OfferedSummary offered={result.offered} deferred={result.deferred} denied={result.denied} />
    </div>
  );
}
