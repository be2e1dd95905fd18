/**
 * A horizontal bar chart by category (a tool, an agent) with one or more bars each, drawn on
 * the server (plain HTML: it shows at first paint and works without script). Each bar is a
 * link to `hrefs[index]`, the calls behind its category, named for screen readers and titled
 * for a hover tooltip.
 */
import { ChartLegend, type LegendEntry } from "./chart-legend";
import { valueAxis } from "./value-axis";

export interface CategoryBar extends LegendEntry {
  key: string;
}

export function CategoryBars({
  data,
  category,
  bars,
  hrefs,
  unit,
  testId,
}: {
  data: Array<Record<string, string | number>>;
  category: string;
  bars: CategoryBar[];
  hrefs: string[];
  unit?: string;
  testId: string;
}) {
  const valueOf = (row: Record<string, string | number>, key: string) => {
    const v = Number(row[key]);
    return Number.isFinite(v) && v > 0 ? v : 0;
  };
  const axis = valueAxis(data.reduce((max, row) => Math.max(max, ...bars.map((b) => valueOf(row, b.key))), 0));
  const format = (v: number) => `${v.toLocaleString("en")}${unit ?? ""}`;
  return (
    <figure data-testid={testId} className="w-full text-[11px] text-zinc-500">
      <div className="relative">
        <div className="pointer-events-none absolute inset-y-0 right-4 left-32" aria-hidden="true">
          {axis.ticks.map((t) => (
            <span
              key={t}
              className="absolute inset-y-0 border-l border-dashed border-zinc-300 dark:border-zinc-700"
              style={{ left: axis.left(t) }}
            />
          ))}
        </div>
        <ul className="relative flex flex-col gap-2">
          {data.map((row, i) => {
            const name = String(row[category]);
            return (
              <li key={name} className="flex items-center gap-2">
                <span className="w-30 shrink-0 truncate text-right text-zinc-600 dark:text-zinc-400" title={name}>
                  {name}
                </span>
                <span className="mr-4 flex min-w-0 flex-1 flex-col gap-0.5">
                  {bars.map((b) => {
                    const value = valueOf(row, b.key);
                    const text = `${name}, ${b.label}: ${format(value)}`;
                    return (
                      <a
                        key={b.key}
                        href={hrefs[i]}
                        data-bar
                        data-series={b.key}
                        aria-label={text}
                        title={text}
                        className="block h-3 min-w-px rounded-r-sm hover:opacity-80"
                        style={{ width: axis.left(value), backgroundColor: b.color }}
                      />
                    );
                  })}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
      <div className="relative mr-4 ml-32 h-5" aria-hidden="true">
        {axis.ticks.map((t) => (
          <span
            key={t}
            className="absolute top-1 -translate-x-1/2 whitespace-nowrap tabular-nums"
            style={{ left: axis.left(t) }}
          >
            {format(t)}
          </span>
        ))}
      </div>
      <ChartLegend entries={bars} />
    </figure>
  );
}
