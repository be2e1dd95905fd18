/**
 * Where the turn bench's time goes beside its rates: for each side, its CPU a turn, the time it
 * spends inside SQLite (better-sqlite3's statements and `exec`, which run synchronously on this
 * thread: their wall time is CPU of this thread) and in garbage collection, each charged to the
 * side whose round was running. Timing the statements wraps better-sqlite3's statement methods
 * for the rest of the process, so it runs after the rated rounds, never during them
 * (docs/decisions.md, perf, "Where a SQLite turn's time goes").
 */
import { PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import Database from "better-sqlite3";
import { rotated, row, say, type Row } from "./harness";

type Method = (...args: unknown[]) => unknown;

/** What one side's rounds cost, summed over them. */
export interface SideCost {
  turns: number;
  cpuMs: number;
  sqliteMs: number;
  gcMs: number;
}

const ignore = (_ms: number) => {};
/** Where the time of the statement that just ran goes: the side whose round runs, else nowhere. */
let charge = ignore;
let timing = false;

/** Wraps the methods that run SQL (once per process) so that their time goes to `charge`. */
function timeSqlite(): void {
  if (timing) return;
  timing = true;
  const probe = new Database(":memory:");
  const prototypes: Record<string, Method>[] = [
    Object.getPrototypeOf(probe.prepare("select 1")) as Record<string, Method>,
    Database.prototype as unknown as Record<string, Method>,
  ];
  probe.close();
  for (const [proto, names] of [
    [prototypes[0]!, ["run", "get", "all"]],
    [prototypes[1]!, ["exec"]],
  ] as const) {
    for (const name of names) {
      const original = proto[name]!;
      proto[name] = function (this: unknown, ...args: unknown[]) {
        const started = performance.now();
        try {
          return original.apply(this, args);
        } finally {
          charge(performance.now() - started);
        }
      };
    }
  }
}

/**
 * Measures the sides' rounds that `runRound` runs: call it as `measure(side, turns, () => round(...))`.
 * A collection is charged to the round during which it started.
 */
function sideCostMeter<S extends string>() {
  timeSqlite();
  const costs = new Map<S, SideCost>();
  const rounds: { side: S; start: number; end: number }[] = [];
  const collections: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  const costOf = (side: S) => {
    let cost = costs.get(side);
    if (!cost) costs.set(side, (cost = { turns: 0, cpuMs: 0, sqliteMs: 0, gcMs: 0 }));
    return cost;
  };
  return {
    async measure(side: S, turns: number, runRound: () => Promise<unknown>): Promise<void> {
      const cost = costOf(side);
      charge = (ms) => (cost.sqliteMs += ms);
      const [start, cpu] = [performance.now(), process.cpuUsage()];
      try {
        await runRound();
      } finally {
        charge = ignore;
      }
      const used = process.cpuUsage(cpu);
      cost.turns += turns;
      cost.cpuMs += (used.user + used.system) / 1000;
      rounds.push({ side, start, end: performance.now() });
    },
    /** Each side's cost so far; stops watching collections. */
    finish(): Map<S, SideCost> {
      collections.push(...observer.takeRecords());
      observer.disconnect();
      for (const entry of collections) {
        const during = rounds.find((r) => entry.startTime >= r.start && entry.startTime < r.end);
        if (during) costOf(during.side).gcMs += entry.duration;
      }
      return costs;
    },
  };
}

/** "CPU 0.91 ms, SQLite 0.29 ms (32%), GC 0.04 ms" a turn. */
function describeSideCost(cost: SideCost): string {
  const perTurn = (ms: number) => (ms / cost.turns).toFixed(3);
  const share = cost.cpuMs > 0 ? ` (${((cost.sqliteMs / cost.cpuMs) * 100).toFixed(0)}%)` : "";
  return `CPU ${perTurn(cost.cpuMs)} ms, SQLite ${perTurn(cost.sqliteMs)} ms${share}, GC ${perTurn(cost.gcMs)} ms`;
}

/**
 * Runs `rounds` more rounds of each side (order rotating), `runRound` timing one through the
 * meter, prints where each side's time went, and returns their costs.
 */
export async function measureSideCosts<S extends string>(
  sides: readonly S[],
  rounds: number,
  runRound: (side: S, meter: SideCostMeter<S>) => Promise<unknown>,
): Promise<Map<S, SideCost>> {
  const meter = sideCostMeter<S>();
  for (let r = 0; r < rounds; r += 1) for (const side of rotated(sides, r)) await runRound(side, meter);
  const costs = meter.finish();
  say(`  where a turn's time goes (${rounds} more rounds a side, SQLite's statements timed), a turn:`);
  for (const [side, cost] of costs) say(`    ${side}: ${describeSideCost(cost)}`);
  return costs;
}

/** Rows (no goals): Insika's CPU a turn against `against.cpu`'s, its SQLite time against `against.sqlite`'s. */
export function costRows<S extends string>(
  costs: Map<S, SideCost>,
  size: string,
  against: { cpu: S; sqlite: S },
): Row[] {
  const perTurn = (side: S, part: "cpuMs" | "sqliteMs") => {
    const cost = costs.get(side);
    return cost && cost.turns > 0 ? cost[part] / cost.turns : 0;
  };
  const insika = "insika" as S;
  return (["cpuMs", "sqliteMs"] as const).map((part) => {
    const baseline = part === "cpuMs" ? against.cpu : against.sqlite;
    return row({
      name: "turn, where the time goes",
      size,
      metric: `${part === "cpuMs" ? "CPU" : "SQLite"} per turn (vs ${baseline})`,
      unit: "ms",
      value: perTurn(insika, part),
      baseline: perTurn(baseline, part),
    });
  });
}

export type SideCostMeter<S extends string> = ReturnType<typeof sideCostMeter<S>>;
