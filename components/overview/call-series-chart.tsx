import type { SeriesPoint } from "@/lib/services/observability/overview";
import { callsHref } from "./calls-href";
import { TimeBars } from "./time-bars";

export const OUTCOME_COLORS = { ok: "#10b981", errors: "#f59e0b", blocked: "#ef4444" } as const;

/** Calls per bucket (ok / failed / blocked); a segment opens its calls. `tool` narrows the links to one tool. */
export function CallSeriesChart({
  points,
  bucketMs,
  tool,
  testId,
}: {
  points: SeriesPoint[];
  bucketMs: number;
  tool?: string;
  testId: string;
}) {
  const link = (outcome: "ok" | "error" | "blocked") =>
    points.map((p) => callsHref({ ...(tool ? { tool } : {}), outcome, since: p.at, until: p.at + bucketMs }));
  return (
    <TimeBars
      testId={testId}
      data={points.map((p) => ({ ...p }))}
      bucketMs={bucketMs}
      series={[
        { key: "ok", label: "ok", color: OUTCOME_COLORS.ok },
        { key: "errors", label: "failed", color: OUTCOME_COLORS.errors },
        { key: "blocked", label: "blocked by egress", color: OUTCOME_COLORS.blocked },
      ]}
      hrefs={{ ok: link("ok"), errors: link("error"), blocked: link("blocked") }}
    />
  );
}
