/**
 * What the postgres bench's turns cost beside their rate: the statements node-postgres sent a
 * turn, and the CPU of the cluster's processes a turn (the postmaster and its children, read
 * from /proc: Linux only, elsewhere reported as unknown). With node's own CPU a turn, it says
 * where a PostgreSQL turn's time goes, which the rate alone does not (docs/decisions.md, perf,
 * "What a PostgreSQL turn's rate follows").
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** Linux's clock tick for /proc's CPU times (USER_HZ, 100 on every Linux build Node runs on). */
const TICKS_PER_SECOND = 100;

let statementsSent = 0;
let counting = false;

/** From now on, counts every query this process sends through node-postgres (statementsSent). */
function countStatements(): void {
  if (counting) return;
  counting = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statementsSent += 1;
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

/** CPU ms so far of each process of the cluster whose data directory is `dataDir`, by pid; undefined off Linux. */
function clusterCpu(dataDir: string): Map<number, number> | undefined {
  if (!fs.existsSync("/proc/self/stat")) return undefined;
  const postmaster = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const cpu = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while the list was read
    }
    // The fields after the command's closing parenthesis: state, ppid, … utime (12th), stime (13th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const pid = Number(entry);
    if (pid !== postmaster && Number(fields[1]) !== postmaster) continue;
    cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  }
  return cpu;
}

/** What a stretch of turns cost, summed over the stretches measured. */
export interface TurnCost {
  turns: number;
  nodeCpuMs: number;
  /** Undefined where /proc cannot be read. */
  clusterCpuMs: number | undefined;
  statements: number;
}

/**
 * Measures what the turns `measure` runs cost: against the cluster at `dataDir`, or, without
 * one (the SQLite side), node's CPU alone.
 */
export function turnCostMeter(dataDir?: string) {
  countStatements();
  const zero = (): TurnCost => ({ turns: 0, nodeCpuMs: 0, clusterCpuMs: dataDir ? 0 : undefined, statements: 0 });
  let total = zero();
  const readCluster = () => (dataDir ? clusterCpu(dataDir) : undefined);
  return {
    get total(): TurnCost {
      return total;
    },
    /** Forgets what was measured so far (the warm-up). */
    reset(): void {
      total = zero();
    },
    async measure<T>(turns: number, run: () => Promise<T>): Promise<T> {
      const [before, cpu, sent] = [readCluster(), process.cpuUsage(), statementsSent];
      const value = await run();
      const used = process.cpuUsage(cpu);
      const after = readCluster();
      total.turns += turns;
      total.nodeCpuMs += (used.user + used.system) / 1000;
      total.statements += statementsSent - sent;
      // A process that exited meanwhile takes its share along; one that started counts whole.
      if (before && after && total.clusterCpuMs !== undefined)
        for (const [pid, ms] of after) total.clusterCpuMs += ms - (before.get(pid) ?? 0);
      else total.clusterCpuMs = undefined;
      return value;
    },
  };
}

/** What a turn cost each side, for the bench's printout. */
export function describeTurnCosts(postgres: TurnCost, sqlite: TurnCost): string {
  const per = (x: number, cost: TurnCost) => (x / cost.turns).toFixed(2);
  const cluster =
    postgres.clusterCpuMs === undefined ? "unknown (no /proc)" : `${per(postgres.clusterCpuMs, postgres)} ms`;
  return (
    `a turn on postgres: ${per(postgres.statements, postgres)} statements, node CPU ${per(postgres.nodeCpuMs, postgres)} ms, ` +
    `the cluster's processes' CPU ${cluster}; on sqlite: node CPU ${per(sqlite.nodeCpuMs, sqlite)} ms`
  );
}
