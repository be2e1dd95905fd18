/**
 * http-turn: whole turns end to end through HTTP, as clients use the product. A load-driving
 * client in this process (undici, a keep-alive pool as big as the concurrency) sends
 * `POST /v1/sessions/:id/turns` to the BUILT server (scripts/serve.mjs, test/support/server.ts) at
 * concurrency 50 and 200: each client has its own session (created beforehand with
 * `POST /v1/sessions`, a fresh one per client per round, TURNS_PER_CLIENT turns in it, so a
 * turn's history holds at most 9 earlier turns) and sends its turns one after another. Each
 * turn is a model step (one call of the data tool lookup_item), the tool's HTTP call, a model
 * step (the answer). The model is an OpenAI-compatible server in its own process
 * (bench/model-server-process.ts: instant answers, SSE or JSON as asked), the tool backend is
 * bench/backend-process.ts. Five sides, each measured from outside:
 *   1. Insika, JSON turn endpoint (the client waits for the JSON answer; the server answers it
 *      before Next's router, lib/api/node-turn-route.ts);
 *   1b. the same through Next's router and the route file: a second server of the same build
 *      started with a bare `next start` (its own data): what answering before Next buys,
 *      measured in the same run (rows "http-turn JSON: before Next's router vs through it");
 *   2. Insika, SSE turn endpoint (`Accept: text/event-stream`; the client reads the stream);
 *   3. an AI SDK server (bench/aisdk-server-process.ts, its own process): generateText with
 *      @ai-sdk/openai-compatible against the same model server, one zod tool calling the same
 *      backend over undici, stopWhen stepCountIs(5), nothing persisted, JSON answer;
 *   4. the same server's streamText route, the UI message stream (SSE) read to its end.
 * Insika does what the product does for every turn (auth with a `turns:run` API key, the
 * session's history to the model, the provider streamed, every event, call and checkpoint
 * persisted to SQLite); the AI SDK server does none of that. Every answer is checked: an
 * Insika turn must complete with the answer the model gives after exactly one tool result
 * (and, on SSE, end with turn_completed after one tool_call and one ok tool_result); an AI SDK
 * answer must carry the same text after one tool call. Anything else fails the bench.
 * Every side first runs WARMUP_TURNS turns, interleaved; then at each concurrency, after one
 * warm-up round per side, rounds of the five sides alternate (order rotating); turns/s = turns
 * / wall time of the side's rounds, p50/p95 over every turn's latency (request sent to the
 * body's last byte), and each side's server CPU per turn (no goal: the servers share this
 * machine's cores with the model server, the backend and the client, so the throughput ratios
 * follow it). Also `GET /v1/health` at concurrency 200, requests/s and server CPU per request
 * (the floor of a request through Next.js), against a bare Node server's /health.
 * `BENCH_HTTP_TURN_PROFILE=DIR` instead runs only the Insika JSON load at concurrency 200 with
 * the servers under `node --cpu-prof --cpu-prof-dir=DIR`, for a profile (the `next start`
 * server's with `BENCH_HTTP_TURN_PROFILE_SIDE=jsonNext`).
 */
import fs from "node:fs";
import path from "node:path";
import { AISDK_MODEL } from "./aisdk-server-process";
import { rotated, row, say, stats, type Row } from "./harness";
import { checkGenerate, checkJson, checkSse, checkStream, LABEL, SIDES, type Side } from "./http-turn-answers";
import { healthFloor } from "./http-turn-floor";
import {
  client,
  cpuNow,
  createSessions,
  INSIKA_MODEL,
  MESSAGE,
  modelStats,
  send,
  setup,
  type ModelStats,
  type InsikaServer,
  type Setup,
} from "./http-turn-stack";

const CONCURRENCIES = [50, 200];
/** Turns each client sends per round, all in the one session it was given for the round. */
const TURNS_PER_CLIENT = 10;
const ROUNDS = 4;
const WARMUP_TURNS_PER_CLIENT = 2;
/**
 * Turns per side before the first concurrency is measured, in rounds of WARMUP_CONCURRENCY
 * clients with the sides interleaved. Measured from a fresh server at c=50 in blocks of 500
 * turns, either side's CPU per turn kept falling for about 3,000 turns (Insika's JSON side from
 * 8.8 to ~3 ms, the AI SDK generateText server's from 6.9 to ~2 ms): with less, the c=50 rows
 * measured V8 still optimizing the servers' code, not a running server.
 */
const WARMUP_TURNS = 3_000;
const WARMUP_CONCURRENCY = 50;
function sides({ server, nextStart, aisdk, key }: Setup): Record<Side, (session: string) => Promise<void>> {
  const auth = { authorization: `Bearer ${key}` };
  const turnUrl = (session: string) => `${server.url}/v1/sessions/${session}/turns`;
  return {
    json: async (session) => checkJson(await send(turnUrl(session), { body: { message: MESSAGE }, headers: auth })),
    jsonNext: async (session) =>
      checkJson(
        await send(`${nextStart.server.url}/v1/sessions/${session}/turns`, {
          body: { message: MESSAGE },
          headers: { authorization: `Bearer ${nextStart.key}` },
        }),
        "jsonNext",
      ),
    sse: async (session) =>
      checkSse(
        await send(turnUrl(session), {
          body: { message: MESSAGE },
          headers: { ...auth, accept: "text/event-stream" },
        }),
      ),
    generate: async () => checkGenerate(await send(`${aisdk.url}/generate`, { body: { message: MESSAGE } })),
    stream: async () => checkStream(await send(`${aisdk.url}/stream`, { body: { message: MESSAGE } })),
  };
}

/** The sides served by Insika (their clients need a session each). */
/** The Insika server a side's clients need sessions on; none for the AI SDK server's sides. */
const sessionsOn = (s: Setup, side: Side): InsikaServer | undefined =>
  side === "jsonNext" ? s.nextStart : side === "json" || side === "sse" ? s : undefined;
/** A record of one fresh value per side. */
const perSide = <T>(make: () => T) => Object.fromEntries(SIDES.map((side) => [side, make()])) as Record<Side, T>;

/**
 * One round of a side: `concurrency` clients, each sending `perClient` turns one after another
 * (Insika: in a session of its own, created before the clock starts). Returns the wall time
 * and every turn's latency, in ms.
 */
async function round(
  s: Setup,
  turn: (session: string) => Promise<void>,
  target: InsikaServer | undefined,
  concurrency: number,
  perClient: number,
): Promise<{ wall: number; latencies: number[] }> {
  const sessions = target ? await createSessions(target, concurrency) : [];
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, c) => {
      for (let j = 0; j < perClient; j += 1) {
        const t = performance.now();
        await turn(sessions[c] ?? "");
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { wall: performance.now() - started, latencies };
}

/** The four sides at one concurrency: rows, and lines printed on the way. */
async function atConcurrency(s: Setup, concurrency: number): Promise<Row[]> {
  const turn = sides(s);
  const perRound = concurrency * TURNS_PER_CLIENT;
  for (const side of SIDES) await round(s, turn[side], sessionsOn(s, side), concurrency, WARMUP_TURNS_PER_CLIENT);
  await modelStats(s, true);
  const wall = perSide(() => 0);
  const cpu = perSide(() => ({ server: 0, model: 0 }));
  const latencies = perSide((): number[] => []);
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = rotated(SIDES, r);
    for (const side of order) {
      const before = await cpuNow(s);
      const result = await round(s, turn[side], sessionsOn(s, side), concurrency, TURNS_PER_CLIENT);
      const after = await cpuNow(s);
      const process = side === "jsonNext" ? "nextStart" : sessionsOn(s, side) ? "insika" : "aisdk";
      wall[side] += result.wall;
      latencies[side].push(...result.latencies);
      cpu[side].server += after[process] - before[process];
      cpu[side].model += after.model - before.model;
    }
  }
  const turns = ROUNDS * perRound;
  const tput = (side: Side) => (turns / wall[side]) * 1000;
  const lat = Object.fromEntries(SIDES.map((side) => [side, stats(latencies[side])])) as Record<
    Side,
    ReturnType<typeof stats>
  >;
  say(
    `  concurrency ${concurrency}: ${ROUNDS} rounds of ${perRound} turns per side (${concurrency} clients × ${TURNS_PER_CLIENT} turns, a fresh session per client per round)`,
  );
  for (const side of SIDES) {
    say(
      `    ${LABEL[side].padEnd(28)} ${tput(side).toFixed(0).padStart(5)} turns/s   p50 ${lat[side].median.toFixed(1).padStart(6)} ms   p95 ${lat[side].p95.toFixed(1).padStart(6)} ms   max ${lat[side].max.toFixed(0).padStart(5)} ms   CPU per turn: server ${(cpu[side].server / turns).toFixed(2)} ms, model server ${(cpu[side].model / turns).toFixed(2)} ms`,
    );
  }
  const seen = await modelStats(s);
  const perRequest = (m: ModelStats | undefined) => (m ? (m.messages / m.requests).toFixed(1) : "?");
  say(
    `    model requests: Insika ${seen[INSIKA_MODEL]?.requests ?? 0} (${seen[INSIKA_MODEL]?.streamed ?? 0} streamed, ${perRequest(seen[INSIKA_MODEL])} messages each on average: the session's history), AI SDK ${seen[AISDK_MODEL]?.requests ?? 0} (${seen[AISDK_MODEL]?.streamed ?? 0} streamed, ${perRequest(seen[AISDK_MODEL])} messages each)`,
  );
  const size = `c=${concurrency}`;
  const pair = (name: string, ours: Side, theirs: Side): Row[] => [
    row({
      name,
      size,
      metric: "throughput",
      unit: "turns/s",
      value: tput(ours),
      baseline: tput(theirs),
      goal: { on: "ratio", op: ">=", limit: 1 },
    }),
    row({ name, size, metric: "p50 latency", unit: "ms", value: lat[ours].median, baseline: lat[theirs].median }),
    row({
      name,
      size,
      metric: "server CPU per turn",
      unit: "ms",
      value: cpu[ours].server / turns,
      baseline: cpu[theirs].server / turns,
    }),
    row({
      name,
      size,
      metric: "p95 latency",
      unit: "ms",
      value: lat[ours].p95,
      baseline: lat[theirs].p95,
      goal: { on: "ratio", op: "<=", limit: 1.2 },
    }),
  ];
  const viaNext = "http-turn JSON: before Next's router vs through it";
  return [
    ...pair("http-turn JSON vs AI SDK generateText", "json", "generate"),
    ...pair("http-turn SSE vs AI SDK streamText", "sse", "stream"),
    row({
      name: viaNext,
      size,
      metric: "throughput",
      unit: "turns/s",
      value: tput("json"),
      baseline: tput("jsonNext"),
    }),
    row({ name: viaNext, size, metric: "p95 latency", unit: "ms", value: lat.json.p95, baseline: lat.jsonNext.p95 }),
    row({
      name: viaNext,
      size,
      metric: "server CPU per turn",
      unit: "ms",
      value: cpu.json.server / turns,
      baseline: cpu.jsonNext.server / turns,
    }),
  ];
}

/** Turns every side through its server before anything is measured (WARMUP_TURNS). */
async function warmUp(s: Setup): Promise<void> {
  const turn = sides(s);
  const perRound = WARMUP_CONCURRENCY * TURNS_PER_CLIENT;
  const wall = perSide(() => 0);
  for (let r = 0; r < WARMUP_TURNS / perRound; r += 1)
    for (const side of SIDES)
      wall[side] += (await round(s, turn[side], sessionsOn(s, side), WARMUP_CONCURRENCY, TURNS_PER_CLIENT)).wall;
  say(
    `  warm-up (${WARMUP_TURNS} turns per side at concurrency ${WARMUP_CONCURRENCY}, sides interleaved): ${SIDES.map((side) => `${LABEL[side].trim()} ${((WARMUP_TURNS / wall[side]) * 1000).toFixed(0)}/s`).join(", ")}`,
  );
}

/** BENCH_HTTP_TURN_PROFILE: the Insika JSON load at c=200 under --cpu-prof; no rows. */
async function profile(s: Setup, dir: string): Promise<void> {
  const side = process.env.BENCH_HTTP_TURN_PROFILE_SIDE === "jsonNext" ? "jsonNext" : "json";
  const json = sides(s)[side];
  const target = sessionsOn(s, side);
  await round(s, json, target, 200, WARMUP_TURNS_PER_CLIENT);
  let turns = 0;
  let wall = 0;
  for (let r = 0; r < ROUNDS; r += 1) {
    const result = await round(s, json, target, 200, TURNS_PER_CLIENT);
    turns += result.latencies.length;
    wall += result.wall;
  }
  say(`  profiled: ${turns} Insika JSON turns at concurrency 200, ${((turns / wall) * 1000).toFixed(0)} turns/s`);
  await s.server.stop();
  await s.nextStart.server.stop();
  const profiles = fs.readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  say(`  profiles in ${dir} (the server's is the largest): ${profiles.join(", ")}`);
}

export default async function httpTurn(): Promise<Row[]> {
  const stack: Array<() => unknown> = [];
  const profileDir = process.env.BENCH_HTTP_TURN_PROFILE;
  try {
    if (profileDir) {
      fs.mkdirSync(profileDir, { recursive: true });
      const dir = path.resolve(profileDir);
      const s = await setup(stack, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
      say(`http-turn: profiling the server (${s.server.url}) into ${dir}`);
      await profile(s, dir);
      return [];
    }
    const s = await setup(stack);
    say(
      `http-turn: the built server (${s.server.url}, scripts/serve.mjs, SQLite), the AI SDK server, the model server and the tool backend each in its own process; undici client in this process; ${WARMUP_TURNS} warm-up turns per side, then at each concurrency ${WARMUP_TURNS_PER_CLIENT} more per client and the sides alternating per round (order rotating)`,
    );
    await warmUp(s);
    const rows: Row[] = [];
    for (const concurrency of CONCURRENCIES) rows.push(...(await atConcurrency(s, concurrency)));
    rows.push(...(await healthFloor(s)));
    return rows;
  } finally {
    // Every process this bench started, newest first, even when a check failed.
    for (const stop of stack.reverse()) await stop();
    await client.close();
  }
}
