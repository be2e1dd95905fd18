/** The legend under an Overview chart: one color swatch and label per series. */
export interface LegendEntry {
  label: string;
  /** A CSS color. */
  color: string;
}

export function ChartLegend({ entries }: { entries: LegendEntry[] }) {
  return (
    <figcaption className="mt-1 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
      {entries.map((e) => (
        <span key={e.label} className="inline-flex items-center gap-1.5">
          <span
            className="inline-block h-2.5 w-2.5 rounded-sm"
            style={{ backgroundColor: e.color }}
            aria-hidden="true"
          />
          {e.label}
        </span>
      ))}
    </figcaption>
  );
}
