/**
 * The floor of a request through Next.js, beside the http-turn rows (bench/http-turn.ts):
 * `GET /v1/health` on the Insika server against the bare Node server's /health, at
 * concurrency HEALTH_CONCURRENCY, requests/s and server CPU per request.
 */
import { row, say, type Row } from "./harness";
import { cpuNow, send, type Setup } from "./http-turn-stack";

const HEALTH_CONCURRENCY = 200;
const HEALTH_REQUESTS = 10_000;

/** GET /v1/health on the Insika server against the bare Node server's /health, at HEALTH_CONCURRENCY. */
export async function healthFloor(s: Setup): Promise<Row[]> {
  const burst = async (url: string, total: number) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: HEALTH_CONCURRENCY }, async () => {
        while (next < total) {
          next += 1;
          const res = await send(url, { method: "GET" });
          if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
        }
      }),
    );
    return performance.now() - started;
  };
  const urls = { insika: `${s.server.url}/v1/health`, node: `${s.aisdk.url}/health` };
  const wall = { insika: 0, node: 0 };
  const cpu = { insika: 0, node: 0 };
  await burst(urls.insika, 2_000);
  await burst(urls.node, 2_000);
  for (let r = 0; r < 4; r += 1) {
    const order = r % 2 === 0 ? (["insika", "node"] as const) : (["node", "insika"] as const);
    for (const side of order) {
      const before = await cpuNow(s);
      wall[side] += await burst(urls[side], HEALTH_REQUESTS / 4);
      const after = await cpuNow(s);
      // The bare /health is served by the AI SDK server's process.
      cpu[side] += side === "insika" ? after.insika - before.insika : after.aisdk - before.aisdk;
    }
  }
  const rate = (side: "insika" | "node") => (HEALTH_REQUESTS / wall[side]) * 1000;
  const perRequest = (side: "insika" | "node") => cpu[side] / HEALTH_REQUESTS;
  say(
    `  GET /v1/health at concurrency ${HEALTH_CONCURRENCY} (${HEALTH_REQUESTS} requests per side, 4 alternating rounds): Insika (Next.js) ${rate("insika").toFixed(0)} req/s and ${perRequest("insika").toFixed(3)} ms of server CPU a request, bare Node http ${rate("node").toFixed(0)} req/s and ${perRequest("node").toFixed(3)} ms`,
  );
  const name = "http-turn floor: GET /v1/health";
  const size = `c=${HEALTH_CONCURRENCY}`;
  return [
    row({
      name,
      size,
      metric: "throughput (baseline: bare Node http)",
      unit: "req/s",
      value: rate("insika"),
      baseline: rate("node"),
    }),
    row({
      name,
      size,
      metric: "server CPU per request (baseline: bare Node http)",
      unit: "ms",
      value: perRequest("insika"),
      baseline: perRequest("node"),
    }),
  ];
}
