"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setExposureAction } from "@/app/(studio)/tools/actions";
import { Badge, type Tone } from "@/components/ui/badge";
import { controlClass } from "@/components/ui/field";
import type { ToolExposureMode } from "@/lib/services/agents/set-agent-policy";
import type { AgentExposureRow } from "@/lib/services/tools/tool-page";

const TONE: Record<AgentExposureRow["status"], Tone> = {
  offered: "green",
  deferred: "amber",
  denied: "red",
  not_allowed: "neutral",
  unavailable: "red",
};
const LABEL: Record<AgentExposureRow["status"], string> = {
  offered: "offered",
  deferred: "deferred",
  denied: "denied",
  not_allowed: "not allowed",
  unavailable: "unavailable",
};

function currentMode(row: AgentExposureRow): ToolExposureMode {
  return row.status === "denied"
    ? "deny"
    : row.status === "deferred"
      ? "defer"
      : row.status === "offered" && row.reason === "allowed by name"
        ? "allow"
        : "unset";
}

/** Which agents are offered this tool, why, and a control to change it per agent. */
export function ToolExposure({
  tool,
  rows,
  system = false,
}: {
  tool: string;
  rows: AgentExposureRow[];
  system?: boolean;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const change = (agentId: string, mode: ToolExposureMode) =>
    start(async () => {
      const result = await setExposureAction(agentId, tool, mode);
      setError(result.ok ? null : result.error);
      router.refresh();
    });

  if (rows.length === 0) {
    return (
      <p className="text-sm text-zinc-500">
        No agents yet.{" "}
        <Link className="underline" href="/agents/new">
          Create an agent
        </Link>{" "}
        to offer it this tool.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <table className="w-full text-sm">
        <thead className="text-left text-xs text-zinc-500">
          <tr>
            <th className="py-1 pr-3 font-medium">Agent</th>
            <th className="py-1 pr-3 font-medium">Exposure</th>
            <th className="py-1 pr-3 font-medium">Why</th>
            <th className="py-1 font-medium">Set</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.agent_id} data-agent={r.agent_id} className="border-t border-zinc-100 dark:border-zinc-900">
              <td className="py-2 pr-3">
                <Link className="underline" href={`/agents/${r.agent_id}`}>
                  {r.agent_name}
                </Link>
              </td>
              <td className="py-2 pr-3">
                <Badge tone={TONE[r.status]}>{LABEL[r.status]}</Badge>
              </td>
              <td className="py-2 pr-3 text-zinc-600 dark:text-zinc-400">{r.reason}</td>
              <td className="py-2">
                <select
                  aria-label={`Exposure for ${r.agent_name}`}
                  disabled={pending || r.status === "unavailable"}
                  className={controlClass}
                  value={currentMode(r)}
                  onChange={(e) => change(r.agent_id, e.target.value as ToolExposureMode)}
                >
                  {system ? (
                    // A system tool follows the agent's features; an allowlist does not offer it, only deny removes it.
                    <option value="unset">When configured (not denied)</option>
                  ) : (
                    <>
                      <option value="unset">
                        {r.has_allowlist ? "Not listed (group rules apply)" : "Default (no allowlist: all tools)"}
                      </option>
                      <option value="allow">Allow by name</option>
                      <option value="defer">Deferred (via tool_search)</option>
                    </>
                  )}
                  <option value="deny">Deny</option>
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
