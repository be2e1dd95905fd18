"use client";
import Link from "next/link";
import { Badge, KIND_TONE, type Tone } from "@/components/ui/badge";
import type { Exposure } from "@/lib/agents/policy";
import type { StudioPolicy } from "@/lib/services/agents/set-agent-policy";
import type { ListKey } from "./policy-edit";

export interface MatrixTool {
  name: string;
  kind: "code" | "data" | "mcp";
  group: string | null;
}

const TONE: Record<Exposure["status"], Tone> = {
  offered: "green",
  deferred: "amber",
  denied: "red",
  not_allowed: "neutral",
};
export const MATRIX_COLUMNS =
  "grid grid-cols-[minmax(0,1fr)_repeat(4,2.25rem)_5.5rem] items-center gap-1 px-2 sm:grid-cols-[minmax(0,1fr)_repeat(4,4.5rem)_7rem] sm:gap-2 sm:px-3";

/** One tool of the matrix: its checkboxes and the resulting exposure, with the reason on hover. */
export function MatrixRow(props: {
  tool: MatrixTool;
  policy: StudioPolicy;
  exposure?: Exposure;
  all: boolean;
  height: number;
  onToggle: (key: ListKey, name: string, on: boolean) => void;
}) {
  const { tool, policy, exposure, all } = props;
  const box = (key: ListKey, label: string, disabled = false) => (
    <span className="flex justify-center">
      <input
        type="checkbox"
        aria-label={`${label} ${tool.name}`}
        checked={key === "tools_allow" && all ? true : (policy[key] ?? []).includes(tool.name)}
        disabled={disabled}
        onChange={(e) => props.onToggle(key, tool.name, e.target.checked)}
        className="size-4"
      />
    </span>
  );
  return (
    <div
      role="row"
      data-tool={tool.name}
      style={{ height: props.height }}
      className={`${MATRIX_COLUMNS} border-b border-zinc-100 text-sm dark:border-zinc-900`}
    >
      <span className="flex min-w-0 items-center gap-2">
        <Link href={`/tools/${tool.name}?tab=agents`} className="truncate font-mono hover:underline">
          {tool.name}
        </Link>
        <span className="hidden sm:inline-flex">
          <Badge tone={KIND_TONE[tool.kind]}>{tool.kind}</Badge>
        </span>
        {tool.group ? <span className="hidden truncate text-xs text-zinc-500 md:inline">{tool.group}</span> : null}
      </span>
      {box("tools_allow", "Allow", all)}
      {box("tools_deny", "Deny")}
      {box("tools_deferred", "Defer")}
      {box("approvals", "Approval for")}
      <span title={exposure?.reason} data-exposure={exposure?.status}>
        <Badge tone={exposure ? TONE[exposure.status] : "neutral"}>{exposure?.status.replace("_", " ") ?? "?"}</Badge>
      </span>
    </div>
  );
}
