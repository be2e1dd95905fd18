/**
 * A stacked bar chart over time buckets, drawn on the server as SVG: it is in the page's HTML,
 * so it shows at first paint and works before (or without) any script. Each segment is a link
 * to the calls behind it, `hrefs[series][index]`, with a `<title>` that names it for screen
 * readers and shows as a tooltip. Times are shown in UTC, as the server computed the buckets.
 */
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { valueAxis } from "./value-axis";

export interface TimeBarSeries extends LegendEntry {
  key: string;
}

type Point = { at: number } & Record<string, number>;

/** At most this many time labels under the bars (the others are left out, evenly). */
const TIME_LABELS = 6;

export function TimeBars({
  data,
  series,
  bucketMs,
  hrefs,
  testId,
}: {
  data: Point[];
  series: TimeBarSeries[];
  bucketMs: number;
  /** Per series key: the link of each point, in data order. */
  hrefs: Record<string, string[]>;
  testId: string;
}) {
  const days = bucketMs >= 3_600_000;
  const label = (at: number) => {
    const iso = new Date(at).toISOString();
    return days ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}h` : iso.slice(11, 16);
  };
  const totals = data.map((p) => series.reduce((sum, s) => sum + (p[s.key] ?? 0), 0));
  const axis = valueAxis(totals.reduce((max, t) => Math.max(max, t), 0));
  const n = Math.max(1, data.length);
  const labelEvery = Math.ceil(n / TIME_LABELS);
  return (
    <figure data-testid={testId} className="w-full text-[11px] text-zinc-500">
      <div className="flex h-48">
        <div className="relative w-12 shrink-0" aria-hidden="true">
          {axis.ticks.map((t) => (
            <span key={t} className="absolute right-2 -translate-y-1/2 tabular-nums" style={{ top: axis.top(t) }}>
              {t.toLocaleString("en")}
            </span>
          ))}
        </div>
        <svg
          className="h-full min-w-0 flex-1 overflow-visible"
          viewBox={`0 0 ${n} ${axis.max}`}
          preserveAspectRatio="none"
          role="group"
          aria-label={`${series.map((s) => s.label).join(", ")} per ${days ? "hour bucket" : "bucket"}`}
        >
          {axis.ticks.map((t) => (
            <line
              key={t}
              x1={0}
              x2={n}
              y1={axis.max - t}
              y2={axis.max - t}
              className="stroke-zinc-300 dark:stroke-zinc-700"
              strokeDasharray="3 3"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {series.map((s, k) => (
            // One group per series: its color, its hover style and its key hold for every bar in it
            // (the page carries each bar's markup twice, as HTML and in the RSC payload).
            <g key={s.key} data-series={s.key} fill={s.color} className="[&>a:hover]:opacity-80">
              {data.map((p, i) => {
                const value = p[s.key] ?? 0;
                if (value <= 0) return null;
                // Stacked in series order, the first at the bottom.
                const below = series.slice(0, k).reduce((sum, b) => sum + (p[b.key] ?? 0), 0);
                const text = `${label(p.at)} UTC, ${s.label}: ${value.toLocaleString("en")}`;
                return (
                  // The <title> is the link's accessible name and its tooltip.
                  <a key={p.at} href={hrefs[s.key]?.[i]} data-bar>
                    <title>{text}</title>
                    <rect x={i + 0.1} width={0.8} y={axis.max - below - value} height={value} />
                  </a>
                );
              })}
            </g>
          ))}
        </svg>
      </div>
      <div className="relative ml-12 h-5" aria-hidden="true">
        {data.map((p, i) =>
          i % labelEvery === 0 ? (
            <span
              key={p.at}
              className="absolute top-1 -translate-x-1/2 whitespace-nowrap tabular-nums"
              style={{ left: `${((i + 0.5) / n) * 100}%` }}
            >
              {label(p.at)}
            </span>
          ) : null,
        )}
      </div>
      <ChartLegend entries={series} />
    </figure>
  );
}
