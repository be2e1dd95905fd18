/**
 * The bench harness: timing (warm-up, interleaved A/B runs), statistics
 * (median, p95, min-max), memory, result rows, and the JSON + Markdown writers.
 * Machines here are noisy, so every bench reports a ratio against a baseline
 * measured in the same process, interleaved with Insika's runs.
 */
import { execSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

/** A goal on a row's value or on its ratio to the baseline. */
export interface Goal {
  on: "value" | "ratio";
  op: "<=" | ">=";
  limit: number;
  /** Accept within this distance of `limit` (for "= 8x"); `op` is then ignored. */
  within?: number;
}

/** One line of the results table (one per bench metric and size). */
export interface Row {
  name: string;
  size: string;
  metric: string;
  unit: string;
  value: number;
  baseline: number | null;
  ratio: number | null;
  goal: string | null;
  met: boolean | null;
}

export function row(p: {
  name: string;
  size: string;
  metric: string;
  unit: string;
  value: number;
  baseline?: number | null;
  goal?: Goal;
}): Row {
  const baseline = p.baseline ?? null;
  const ratio = baseline ? round(p.value / baseline, 3) : null;
  const goal = p.goal ?? null;
  let met: boolean | null = null;
  if (goal) {
    const x = goal.on === "ratio" ? ratio : p.value;
    if (x !== null)
      met =
        goal.within !== undefined
          ? Math.abs(x - goal.limit) <= goal.within
          : goal.op === "<="
            ? x <= goal.limit
            : x >= goal.limit;
  }
  return {
    name: p.name,
    size: p.size,
    metric: p.metric,
    unit: p.unit,
    value: round(p.value, 4),
    baseline: baseline === null ? null : round(baseline, 4),
    ratio,
    goal: goal ? describeGoal(goal, p.unit) : null,
    met,
  };
}

function describeGoal(g: Goal, unit: string): string {
  const what = g.on === "ratio" ? "ratio" : "value";
  if (g.within !== undefined) return `${what} = ${g.limit} ± ${g.within}`;
  return `${what} ${g.op} ${g.limit}${g.on === "value" ? ` ${unit}` : ""}`;
}

export const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface Stats {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function stats(samples: readonly number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  const mid = s.length % 2 ? at(0.5) : ((s[s.length / 2 - 1] ?? NaN) + (s[s.length / 2] ?? NaN)) / 2;
  return { n: s.length, median: mid, p95: at(0.95), min: s[0] ?? NaN, max: s[s.length - 1] ?? NaN };
}

/** `median 0.312 ms  p95 0.410  min-max 0.280-1.200  (n=1000)` */
export function describe(s: Stats, unit = "ms", digits = 3): string {
  const f = (x: number) => x.toFixed(digits);
  return `median ${f(s.median)} ${unit}  p95 ${f(s.p95)}  min-max ${f(s.min)}-${f(s.max)}  (n=${s.n})`;
}

/** Prints one line of what was measured and how. */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Times each side once per iteration, alternating which side goes first
 * (A B, B A, A B ...), so drift and warm caches affect both alike.
 * `warmup` iterations are run and thrown away first. Returns ms per iteration.
 */
export async function interleave<K extends string>(
  sides: Record<K, (i: number) => Promise<unknown>>,
  options: { warmup: number; runs: number },
): Promise<Record<K, number[]>> {
  const names = Object.keys(sides) as K[];
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < options.warmup + options.runs; i += 1) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const t = performance.now();
      await sides[name](i);
      if (i >= options.warmup) times[name].push(performance.now() - t);
    }
  }
  return times;
}

/** Runs `work(i)` for i in [0, total) with `concurrency` workers; resolves when all are done. */
export async function pool(total: number, concurrency: number, work: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await work(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

/** Peak resident memory of this process so far, in MiB (the kernel's high-water mark). */
export const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
export const rssMb = () => process.memoryUsage().rss / 1024 / 1024;

export function machineInfo() {
  let commit: string | null = null;
  try {
    commit = execSync("git rev-parse --short HEAD", { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // not a git checkout
  }
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memory_gb: round(os.totalmem() / 2 ** 30, 1),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    commit,
    date: new Date().toISOString(),
  };
}

function cell(x: number | null, digits = 3): string {
  if (x === null) return "—";
  return Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toFixed(digits)).toString();
}

export function markdown(rows: Row[], machine: ReturnType<typeof machineInfo>): string {
  const lines = [
    `Machine: ${machine.cpu} × ${machine.cores}, ${machine.memory_gb} GiB, ${machine.os}, Node ${machine.node}, commit ${machine.commit ?? "?"}, ${machine.date}`,
    "",
    "| bench | size | metric | Insika | baseline | ratio | goal | met |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => {
      const met = r.met === null ? "" : r.met ? "yes" : "**no**";
      return `| ${r.name} | ${r.size} | ${r.metric} | ${cell(r.value)} ${r.unit} | ${r.baseline === null ? "—" : `${cell(r.baseline)} ${r.unit}`} | ${cell(r.ratio)} | ${r.goal ?? ""} | ${met} |`;
    }),
  ];
  return `${lines.join("\n")}\n`;
}

/** Writes bench-results.json and bench-results.md at the repository root (both git-ignored). */
export function writeResults(rows: Row[]): void {
  const machine = machineInfo();
  fs.writeFileSync("bench-results.json", `${JSON.stringify({ machine, benches: rows }, null, 2)}\n`);
  fs.writeFileSync("bench-results.md", markdown(rows, machine));
}

/** The sides in round `r`'s order: it rotates by one a round, so no side always follows the same one. */
export function rotated<T>(sides: readonly T[], r: number): T[] {
  return [...sides.slice(r % sides.length), ...sides.slice(0, r % sides.length)];
}
