"use client";
import { useRouter } from "next/navigation";
import { useMemo, useState, useTransition } from "react";
import { restoreVersionAction } from "@/app/(studio)/tools/actions";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { foldDiff, lineDiff } from "./line-diff";

export interface VersionView {
  version: number;
  change: string;
  source: string;
  created_at: string;
  definition: unknown;
  /** Who made it; null for versions written before keys existed. */
  by: { key_id: string; name: string | null } | null;
}

const text = (d: unknown) => (d === null || d === undefined ? "" : JSON.stringify(d, null, 2));
const OP_STYLE = {
  same: "",
  fold: "bg-zinc-50 italic text-zinc-500 dark:bg-zinc-900",
  add: "bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  del: "bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** Every stored version; the selected one shows what that write changed, and can be restored. */
export function VersionHistory({
  tool,
  versions,
  current,
}: {
  tool: string;
  versions: VersionView[];
  current: number | null;
}) {
  const [selected, setSelected] = useState(versions[0]?.version ?? 0);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const router = useRouter();
  const index = versions.findIndex((v) => v.version === selected);
  const chosen = versions[index];
  const previous = versions[index + 1];
  const diff = useMemo(
    () => foldDiff(lineDiff(text(previous?.definition), text(chosen?.definition))),
    [previous, chosen],
  );

  const restore = () =>
    start(async () => {
      const result = await restoreVersionAction(tool, selected);
      setMessage(result.ok ? `Restored version ${selected} as version ${result.value}.` : result.error);
      if (result.ok) router.refresh();
    });

  return (
    <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
      <ol aria-label="Versions" className="flex max-h-[60vh] flex-col gap-1 overflow-y-auto">
        {versions.map((v) => (
          <li key={v.version}>
            <button
              type="button"
              aria-pressed={v.version === selected}
              onClick={() => setSelected(v.version)}
              className="flex w-full items-center justify-between gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-zinc-100 aria-pressed:bg-zinc-200 dark:hover:bg-zinc-900 dark:aria-pressed:bg-zinc-800"
            >
              <span>
                v{v.version}{" "}
                <Badge tone={v.change === "delete" ? "red" : v.change === "create" ? "green" : "neutral"}>
                  {v.change}
                </Badge>
              </span>
              <span className="flex min-w-0 flex-col items-end text-xs text-zinc-500" title={v.created_at}>
                <span>
                  {v.source} · {new Date(v.created_at).toLocaleString()}
                </span>
                <span
                  data-testid="version-by"
                  className="truncate"
                  title={v.by ? `${v.by.name ?? v.by.key_id} (${v.by.key_id})` : "made before keys were recorded"}
                >
                  by {v.by ? (v.by.name ?? v.by.key_id) : "unknown"}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <div className="flex min-w-0 flex-col gap-2">
        <div className="flex flex-wrap items-center gap-3">
          <h3 className="text-sm font-semibold">
            Version {selected}: changes from {previous ? `v${previous.version}` : "nothing"}
          </h3>
          <Button
            variant="secondary"
            onClick={restore}
            disabled={pending || !chosen?.definition || selected === current}
          >
            {selected === current ? "This is the current version" : `Restore v${selected}`}
          </Button>
          <span role="status" className="text-sm">
            {message}
          </span>
        </div>
        <pre
          data-testid="version-diff"
          className="max-h-[60vh] overflow-auto rounded border border-zinc-200 font-mono text-xs dark:border-zinc-800"
        >
          {diff.map((l, i) => (
            <div key={i} className={`px-2 ${OP_STYLE[l.op]}`}>
              {l.op === "add" ? "+ " : l.op === "del" ? "- " : l.op === "fold" ? "" : "  "}
              {l.text}
            </div>
          ))}
        </pre>
      </div>
    </div>
  );
}
