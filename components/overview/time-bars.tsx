"use client";
/**
 * A stacked bar chart over time buckets (Recharts). Clicking a bar segment opens the calls
 * behind it: `hrefOf(point, series)` says where (the calls list filtered to that bucket and
 * outcome). Times are shown in UTC, as the server computed the buckets.
 */
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface TimeBarSeries {
  key: string;
  label: string;
  color: string;
}

type Point = { at: number } & Record<string, number>;

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
  const router = useRouter();
  const days = bucketMs >= 3_600_000;
  const tick = (at: number) => {
    const iso = new Date(at).toISOString();
    return days ? `${iso.slice(5, 10)} ${iso.slice(11, 13)}h` : iso.slice(11, 16);
  };
  return (
    <div data-testid={testId} className="h-56 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#d4d4d8" />
          <XAxis dataKey="at" tickFormatter={tick} fontSize={11} minTickGap={24} />
          <YAxis allowDecimals={false} fontSize={11} />
          <Tooltip labelFormatter={(at) => `${tick(Number(at))} UTC`} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId="one"
              fill={s.color}
              cursor="pointer"
              isAnimationActive={false}
              onClick={(_entry, index) => {
                const href = hrefs[s.key]?.[index];
                if (href) router.push(href);
              }}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
