"use client";
/**
 * A horizontal bar chart by category (a tool, an agent) with one or more bars each
 * (Recharts). Clicking a bar opens `hrefs[index]`: the calls behind that category.
 */
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface CategoryBar {
  key: string;
  label: string;
  color: string;
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
  const router = useRouter();
  const height = Math.max(120, 40 + data.length * 34);
  return (
    <div data-testid={testId} className="w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#d4d4d8" />
          <XAxis type="number" fontSize={11} unit={unit} />
          <YAxis type="category" dataKey={category} width={120} fontSize={11} />
          <Tooltip formatter={(value) => `${Number(value).toLocaleString("en")}${unit ?? ""}`} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {bars.map((b) => (
            <Bar
              key={b.key}
              dataKey={b.key}
              name={b.label}
              fill={b.color}
              cursor="pointer"
              isAnimationActive={false}
              onClick={(_entry, index) => {
                const href = hrefs[index];
                if (href) router.push(href);
              }}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
