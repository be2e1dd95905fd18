/**
 * The Overview's time windows (1 h, 24 h, 7 d) and their buckets, and exact percentiles over
 * grouped durations. Pure: the page, its queries and the bench share them.
 */
export const WINDOWS = {
  "1h": { label: "1 h", ms: 3_600_000, bucketMs: 60_000 },
  "24h": { label: "24 h", ms: 86_400_000, bucketMs: 1_800_000 },
  "7d": { label: "7 d", ms: 604_800_000, bucketMs: 7_200_000 },
} as const;

export type WindowKey = keyof typeof WINDOWS;

export interface OverviewWindow {
  key: WindowKey;
  label: string;
  since: number;
  until: number;
  bucketMs: number;
  buckets: number;
}

/** The window a query string names (anything else: 24 h), ending at `now`, its start aligned to a bucket. */
export function overviewWindow(key: string | undefined, now: number): OverviewWindow {
  const chosen: WindowKey = key !== undefined && Object.hasOwn(WINDOWS, key) ? (key as WindowKey) : "24h";
  const { label, ms, bucketMs } = WINDOWS[chosen];
  // Aligned, so a bucket covers the same minutes on every load; the first is partial.
  const until = Math.ceil(now / bucketMs) * bucketMs;
  const since = until - ms;
  return { key: chosen, label, since, until, bucketMs, buckets: ms / bucketMs };
}

/**
 * The q-quantile (0..1) of values given as (value, count) pairs, exact (nearest rank);
 * undefined when there are none.
 */
export function quantileOfCounts(counts: ReadonlyArray<readonly [number, number]>, q: number): number | undefined {
  const sorted = [...counts].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return undefined;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [value, n] of sorted) {
    seen += n;
    if (seen >= rank) return value;
  }
  return sorted.at(-1)![0];
}
