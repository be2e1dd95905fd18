/**
 * postgres: the fleet's database against the default one, in the same run. A throwaway
 * PostgreSQL cluster on a loopback port (scripts/test-postgres.sh, started --durable: fsync
 * on, as an operator runs it) and a fresh SQLite file, each measured the way its own bench
 * measures SQLite:
 * - turn: whole turns (startTurn, scripted model, one loopback tool call) at concurrency 16,
 *   rounds of the two databases interleaved, and what a turn costs (postgres-turn-cost.ts);
 * - data-call: one data tool call and its trace row, sequential, against undici alone;
 * - trace-write: engine events through the TurnRecorder (group commit), 10 turns at a time;
 * - fleet: turns/s over HTTP with 1, 2 and 3 built servers on one PostgreSQL database, the
 *   turns spread round-robin. On this 2-core machine every instance shares the same cores
 *   (and the database and the client run there too): the figure shows the fleet's overhead,
 *   not its scaling. `BENCH_POSTGRES_NO_FLEET=1` skips this part (the in-process rows alone).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import pg from "pg";
import { openPostgres } from "@/db/client";
import type { Db } from "@/db/database";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { isTerminalEvent } from "@/lib/engine/ports";
import { text, toolCall } from "@/lib/providers/scripted";
import { createSession } from "@/lib/services/sessions/create-session";
import { startTurn } from "@/lib/services/turns/start-turn";
import { TurnRecorder } from "@/lib/services/turns/turn-recorder";
import { startServer, type TestServer } from "../test/support/server";
import { tempDir } from "../test/support/temp-dir";
import {
  benchEnv,
  freshDb,
  itemTool,
  scriptedAgent,
  startBackendProcess,
  storeItemTool,
  undiciClient,
} from "./fixtures";
import { dataCallSide } from "./data-call";
import { describeTurnCosts, turnCostMeter } from "./postgres-turn-cost";
import { describe, interleave, pool, row, say, stats, type Row } from "./harness";
import { turnEvents } from "./trace-write";

const TURNS = 1_600;
const ROUNDS = 8;
const CONCURRENCY = 16;
const CALLS = 2_000;
const TRACE_TURNS = 500;
const FLEET_TURNS = 600;

interface Cluster {
  adminUrl: string;
  dataDir: string;
  createDatabase(): Promise<string>;
  stop(): void;
}

/** A durable throwaway cluster for this run; databases made on it as needed. */
function startCluster(): Cluster {
  const started = spawnSync("bash", ["scripts/test-postgres.sh", "start", "--durable"], { encoding: "utf8" });
  if (started.status !== 0) throw new Error(`cannot start PostgreSQL for the bench:\n${started.stderr}`);
  const value = (key: string) => new RegExp(`^${key}=(.*)$`, "m").exec(started.stdout)?.[1] ?? "";
  const dir = value("INSIKA_TEST_PG_DIR");
  const adminUrl = value("INSIKA_TEST_DATABASE_URL");
  return {
    adminUrl,
    dataDir: path.join(dir, "data"),
    async createDatabase() {
      const name = `bench_${crypto.randomBytes(5).toString("hex")}`;
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`create database ${name}`);
      await client.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    stop: () => void spawnSync("bash", ["scripts/test-postgres.sh", "stop", dir]),
  };
}

async function freshPostgres(cluster: Cluster): Promise<Db> {
  const db = openPostgres(await cluster.createDatabase(), { poolSize: 10 });
  await db.ready();
  return db;
}

/** One database set up for the turn bench (the item tool, the scripted agent calling it once); `meter` costs its turns. */
async function turnSide(db: Db, backendUrl: string, scripts: string, meter: ReturnType<typeof turnCostMeter>) {
  await storeItemTool(db, backendUrl);
  await scriptedAgent(
    db,
    scripts,
    "bench",
    [[text("Let me look. "), toolCall("lookup_item", { id: "42" })], [text("Found: a desk lamp.")]],
    { tools: ["lookup_item"] },
  );
  return async (turns: number): Promise<number> => {
    const sessions: string[] = [];
    for (let i = 0; i < turns; i += 1) sessions.push((await createSession(db, { agentId: "bench" })).id);
    const t = performance.now();
    await meter.measure(turns, () =>
      pool(turns, CONCURRENCY, async (i) => {
        const result = await (await startTurn(db, { sessionId: sessions[i]!, message: "find 42", actor: null })).done;
        if (result.status !== "completed") throw new Error(`turn ${result.status}: ${result.error ?? ""}`);
      }),
    );
    return performance.now() - t;
  };
}

async function turnRows(cluster: Cluster, backendUrl: string, scripts: string): Promise<Row[]> {
  const meters = { postgres: turnCostMeter(cluster.dataDir), sqlite: turnCostMeter() };
  const sides = {
    postgres: await turnSide(await freshPostgres(cluster), backendUrl, scripts, meters.postgres),
    sqlite: await turnSide(freshDb(), backendUrl, scripts, meters.sqlite),
  };
  await sides.postgres(160);
  await sides.sqlite(160);
  for (const meter of Object.values(meters)) meter.reset();
  const times = { postgres: [] as number[], sqlite: [] as number[] };
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = r % 2 ? (["sqlite", "postgres"] as const) : (["postgres", "sqlite"] as const);
    for (const side of order) times[side].push(await sides[side](TURNS / ROUNDS));
  }
  const tput = (side: keyof typeof times) => (TURNS / times[side].reduce((a, b) => a + b, 0)) * 1000;
  say(
    `  turn: ${TURNS} turns at concurrency ${CONCURRENCY}, ${ROUNDS} interleaved rounds: postgres ${tput("postgres").toFixed(0)} turns/s, sqlite ${tput("sqlite").toFixed(0)} turns/s`,
  );
  say(`    ${describeTurnCosts(meters.postgres.total, meters.sqlite.total)}`);
  return [
    row({
      name: "turn (postgres)",
      size: `${TURNS} turns @${CONCURRENCY}`,
      metric: "throughput vs SQLite",
      unit: "turns/s",
      value: tput("postgres"),
      baseline: tput("sqlite"),
      goal: { on: "ratio", op: ">=", limit: 0.5 },
    }),
  ];
}

async function dataCallRows(cluster: Cluster, backendUrl: string): Promise<Row[]> {
  const db = await freshPostgres(cluster);
  const { insika, settle } = await dataCallSide(db, backendUrl);
  const direct = undiciClient(backendUrl);
  const times = await interleave(
    {
      insika,
      undici: (i: number) => direct.call(String(i)),
    },
    { warmup: 200, runs: CALLS },
  );
  await settle();
  const [a, b] = [stats(times.insika), stats(times.undici)];
  say(`  data-call (postgres): insika ${describe(a)}; undici ${describe(b)}`);
  await db.close();
  return [
    row({
      name: "data-call (postgres)",
      size: `${CALLS} calls`,
      metric: "median vs undici",
      unit: "ms",
      value: a.median,
      baseline: b.median,
      goal: { on: "ratio", op: "<=", limit: 1.3 },
    }),
  ];
}

/** Events per second through the TurnRecorder, 10 turns at a time, on `db`. */
async function traceWrite(db: Db, label: string): Promise<number> {
  await scriptedAgent(db, process.env.INSIKA_SCRIPTED_DIR ?? "", `trace_${label}`, [], { tools: [] });
  let events = 0;
  const t = performance.now();
  for (let block = 0; block < TRACE_TURNS / 10; block += 1) {
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const id = `${label}_${block}_${i}`;
        await insertSession(db, { id: `ses_${id}`, agentId: `trace_${label}`, tenant: null });
        await insertTurn(db, { id: `turn_${id}`, sessionId: `ses_${id}`, userMessage: "m" });
        const recorder = await TurnRecorder.open(db, `turn_${id}`, `ses_${id}`, { fresh: true });
        for (const event of turnEvents(`turn_${id}`)) {
          if (isTerminalEvent(event.type)) continue; // held for the turn's end, not written alone
          await recorder.emit(event);
          events += 1;
        }
      }),
    );
  }
  return (events / (performance.now() - t)) * 1000;
}

async function traceWriteRows(cluster: Cluster): Promise<Row[]> {
  const pgRate = await traceWrite(await freshPostgres(cluster), "pg");
  const sqliteRate = await traceWrite(freshDb(), "sqlite");
  say(`  trace-write: postgres ${pgRate.toFixed(0)} events/s, sqlite ${sqliteRate.toFixed(0)} events/s`);
  return [
    row({
      name: "trace-write (postgres)",
      size: `${TRACE_TURNS} turns x ${turnEvents("t").filter((e) => !isTerminalEvent(e.type)).length} events`,
      metric: "events/s vs SQLite",
      unit: "events/s",
      value: pgRate,
      baseline: sqliteRate,
    }),
  ];
}

/** Turns/s over HTTP with `instances` built servers on one database, turns spread round-robin. */
async function fleetRound(cluster: Cluster, backendUrl: string, backendPort: number, instances: number) {
  const scripts = tempDir("insika-fleet-bench-");
  fs.writeFileSync(
    path.join(scripts, "bench.json"),
    JSON.stringify([[text("Let me look. "), toolCall("lookup_item", { id: "42" })], [text("Found: a desk lamp.")]]),
  );
  const env = {
    INSIKA_DATABASE_URL: await cluster.createDatabase(),
    INSIKA_API_TOKEN: `bench_${crypto.randomBytes(16).toString("hex")}`,
    INSIKA_SCRIPTED_DIR: scripts,
    INSIKA_EGRESS_ALLOW_HTTP: "1",
    INSIKA_EGRESS_HOSTS: `127.0.0.1:${backendPort}`,
    INSIKA_LOG_LEVEL: "error",
  };
  const servers: TestServer[] = [];
  try {
    for (let i = 0; i < instances; i += 1) servers.push(await startServer({ env }));
    const first = servers[0]!;
    await first.api("PUT", "/v1/tools/lookup_item", itemTool(backendUrl));
    await first.api("PUT", "/v1/agents/bench", {
      model: { provider: "scripted", model: "bench" },
      metadata: { store_id: "store-1" },
      tools_allow: ["lookup_item"],
    });
    const run = async (turns: number) => {
      const sessions: string[] = [];
      for (let i = 0; i < turns; i += 1)
        sessions.push((await servers[i % instances]!.api("POST", "/v1/sessions", { agent_id: "bench" })).body.id);
      const t = performance.now();
      await pool(turns, CONCURRENCY, async (i) => {
        const answer = await servers[i % instances]!.api("POST", `/v1/sessions/${sessions[i]}/turns`, {
          message: "find 42",
        });
        if (answer.body?.status !== "completed") throw new Error(`fleet turn: ${JSON.stringify(answer.body)}`);
      });
      return performance.now() - t;
    };
    await run(100);
    return (FLEET_TURNS / (await run(FLEET_TURNS))) * 1000;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

async function fleetRows(cluster: Cluster, backendUrl: string, backendPort: number): Promise<Row[]> {
  if (process.env.BENCH_POSTGRES_NO_FLEET === "1") {
    say("  fleet: skipped (BENCH_POSTGRES_NO_FLEET=1)");
    return [];
  }
  if (!fs.existsSync(path.join(".next", "BUILD_ID"))) {
    say("  fleet: skipped, no build (run `npm run build` first: the fleet row starts built servers)");
    return [];
  }
  const rates: number[] = [];
  for (const n of [1, 2, 3]) rates.push(await fleetRound(cluster, backendUrl, backendPort, n));
  say(
    `  fleet over HTTP, ${FLEET_TURNS} turns at concurrency ${CONCURRENCY}: ${rates.map((r, i) => `${i + 1} instance(s) ${r.toFixed(0)} turns/s`).join(", ")} (2 cores shared by every instance, the database and the client: overhead, not scaling)`,
  );
  return rates.map((rate, i) =>
    row({
      name: "fleet (postgres, HTTP)",
      size: `${i + 1} instance(s), ${FLEET_TURNS} turns @${CONCURRENCY}`,
      metric: "throughput vs 1 instance",
      unit: "turns/s",
      value: rate,
      baseline: rates[0]!,
    }),
  );
}

export default async function postgresBench(): Promise<Row[]> {
  const cluster = startCluster();
  const backend = await startBackendProcess();
  const scripts = tempDir("insika-scripts-");
  benchEnv(backend.port, { INSIKA_SCRIPTED_DIR: scripts });
  try {
    say("postgres: a durable throwaway cluster on loopback against a fresh SQLite file, same run");
    return [
      ...(await turnRows(cluster, backend.url, scripts)),
      ...(await dataCallRows(cluster, backend.url)),
      ...(await traceWriteRows(cluster)),
      ...(await fleetRows(cluster, backend.url, backend.port)),
    ];
  } finally {
    backend.stop();
    cluster.stop();
  }
}
