/**
 * data-call: one data tool call end to end — argument validation, placeholders,
 * the egress guard, the send, json_path extraction, and the trace write (the call
 * record queued into the group commit, as a turn records a call without side effects: the
 * call does not wait for it) — against the same GET sent with undici directly
 * (keep-alive Agent, body parsed and the same field re-serialized). Sequential
 * calls, the two sides alternating call by call; the median of each side.
 */
import type { Db } from "@/db/database";
import { insertSession } from "@/db/queries/sessions";
import { insertToolCall } from "@/db/queries/traces";
import { insertTurn } from "@/db/queries/turns";
import { guardedRequest } from "@/lib/egress";
import { buildRequest, executeDataTool } from "@/lib/http-tools";
import { processSecrets } from "@/lib/secrets/secret-source";
import { getCatalog } from "@/lib/services/tools/catalog";
import { getPosture } from "@/lib/services/tools/egress-posture";
import { groupCommit } from "@/lib/services/turns/group-commit";
import { benchEnv, freshDb, scriptedAgent, startBackendProcess, storeItemTool, undiciClient } from "./fixtures";
import { describe, interleave, row, say, stats, type Row } from "./harness";
import { tempDir } from "../test/support/temp-dir";

const SIZES = [100, 1_000, 10_000];
/**
 * Warm-up calls per side before each size is measured. V8 needs about this many calls to finish
 * optimizing the call path: from a fresh process, the ratio of medians per block of 500 calls
 * (stop 42, five processes) was 1.18-1.39 over the first 2,500 calls, 1.13-1.19 from 2,500 to
 * 6,000, and 1.10-1.16 from about 6,000 on, through 20,000 (both sides warm up; Insika's path
 * is the longer one). With fewer (2,500 until stop 42), the 100-call row measured the JIT's
 * progress rather than a running server, as the turn bench's did before its warm-up; the cold
 * start is its own row (COLD_CALLS).
 */
const WARMUP = 6_000;
/** The breakdown's blocks: calls per block and rounds of the four steps. */
const BREAKDOWN_CALLS = 3_000;
const BREAKDOWN_ROUNDS = 3;
/** The first calls of the process, before any warm-up: reported, with no goal. */
const COLD_CALLS = 300;

/**
 * The Insika side of a data call on `db` (either dialect): the bench tool stored, a turn to
 * record calls in, and `insika(i)`: call i validated, sent through the guard, extracted, and
 * its call record inserted. The postgres bench runs the same side on PostgreSQL.
 */
export async function dataCallSide(db: Db, backendUrl: string) {
  await storeItemTool(db, backendUrl);
  await scriptedAgent(db, process.env.INSIKA_SCRIPTED_DIR ?? "", "bench", [], { tools: ["lookup_item"] });
  await insertSession(db, { id: "ses_bench", agentId: "bench", tenant: null });
  await insertTurn(db, { id: "turn_bench", sessionId: "ses_bench", userMessage: "bench" });
  const entry = (await getCatalog(db)).entries.get("lookup_item");
  if (entry?.status !== "ok" || entry.kind === "code") throw new Error("the bench tool did not validate");
  const deps = { posture: getPosture(), secrets: processSecrets };
  const ctx = { chat_id: "ses_bench", store_id: "store-1" };
  const insika = async (i: number) => {
    const callId = `call_${i}`;
    const startedAt = Date.now();
    // The deps as the turn's executor passes them (catalog-executor.ts), field by field: a
    // `{ ...deps, callId }` here cost the side ~7 us a call on Node 20 (decisions.md,
    // "A spread first in a literal"), which no turn pays.
    const result = await executeDataTool(entry.definition, { id: String(i) }, ctx, {
      posture: deps.posture,
      secrets: deps.secrets,
      callId,
    });
    if (!result.ok) throw new Error(`insika call failed: ${result.error}`);
    const r = result.record;
    // As a turn records a call without side effects: its trace row joins the next group
    // commit (in a turn, the checkpoint's; here, lazily, the next flush), and the call is not
    // held for it (a failure still surfaces, in settle()).
    const row = {
      turnId: "turn_bench",
      callId,
      tool: r.tool,
      ok: r.ok,
      startedAt,
      durationMs: r.duration_ms,
      queuedMs: 0,
      record: { ...r },
    };
    written.push(groupCommit(db, (tx) => insertToolCall(tx, row), { lazy: true }));
  };
  const written: Promise<unknown>[] = [];
  /** Waits for every trace row queued so far to be committed (rejects if one failed). */
  const settle = async () => {
    await Promise.all(written.splice(0));
  };
  return { insika, settle, definition: entry.definition, deps, ctx };
}

export default async function dataCall(): Promise<Row[]> {
  const backend = await startBackendProcess();
  benchEnv(backend.port, { INSIKA_SCRIPTED_DIR: tempDir("insika-scripts-") });
  const db = freshDb();
  const { insika, settle, definition, deps, ctx } = await dataCallSide(db, backend.url);
  const direct = undiciClient(backend.url);
  const undici = (i: number) => direct.call(String(i));
  // For the breakdown: the guard alone (same request, the URL as text), the guard with the
  // request buildRequest makes, and the tool call without the trace write.
  const guarded = (i: number) =>
    guardedRequest(
      {
        method: "GET",
        url: `${backend.url}/items?id=${i}&store=store-1`,
        headers: { "X-Chat": "ses_bench" },
        timeoutMs: 30_000,
      },
      { posture: deps.posture },
    );
  const built = (i: number) => {
    const b = buildRequest(definition, { id: String(i) }, ctx, deps.secrets);
    if (!b.ok) throw new Error(b.error);
    return guardedRequest(
      { method: "GET", url: b.request.target, headers: b.request.headers, timeoutMs: 30_000 },
      { posture: deps.posture },
    );
  };
  const noTrace = (i: number) =>
    executeDataTool(definition, { id: String(i) }, ctx, {
      posture: deps.posture,
      secrets: deps.secrets,
      callId: `call_${i}`,
    });

  say(
    `data-call: GET ${backend.url}/items (loopback backend in its own process), sequential, insika/undici alternating per call, ${WARMUP} warm-up calls per size`,
  );
  const rows: Row[] = [];
  try {
    const cold = await interleave({ insika, undici }, { warmup: 0, runs: COLD_CALLS });
    await settle();
    const [coldInsika, coldUndici] = [stats(cold.insika), stats(cold.undici)];
    say(
      `  first ${COLD_CALLS} calls of the process (no warm-up)  insika: ${describe(coldInsika)}; undici: ${describe(coldUndici)}; ratio of medians ${(coldInsika.median / coldUndici.median).toFixed(3)}`,
    );
    rows.push(
      row({
        name: "data-call",
        size: `first ${COLD_CALLS} calls (cold)`,
        metric: "median per call",
        unit: "ms",
        value: coldInsika.median,
        baseline: coldUndici.median,
      }),
    );
    for (const size of SIZES) {
      const t = await interleave({ insika, undici }, { warmup: WARMUP, runs: size });
      await settle();
      const a = stats(t.insika);
      const b = stats(t.undici);
      say(`  ${size} calls  insika: ${describe(a)}`);
      say(`  ${size} calls  undici: ${describe(b)}   ratio of medians ${(a.median / b.median).toFixed(3)}`);
      rows.push(
        row({
          name: "data-call",
          size: `${size} calls`,
          metric: "median per call",
          unit: "ms",
          value: a.median,
          baseline: b.median,
          goal: { on: "ratio", op: "<=", limit: 1.15 },
        }),
        row({
          name: "data-call",
          size: `${size} calls`,
          metric: "p95 per call",
          unit: "ms",
          value: a.p95,
          baseline: b.p95,
        }),
      );
    }
    // Where the time goes, measured the way the rows are: each step in blocks of its own,
    // alternating call by call with undici (a step's cost depends on what ran just before it:
    // interleaving all the steps in one loop made later ones look free), the steps' blocks
    // taking turns; ratios are each block's median over undici's, the median of the rounds.
    const steps = { guarded, built, noTrace, insika };
    const ratios = Object.fromEntries(Object.keys(steps).map((k) => [k, [] as number[]])) as Record<
      keyof typeof steps,
      number[]
    >;
    const undiciMedians: number[] = [];
    for (let round = 0; round < BREAKDOWN_ROUNDS; round += 1) {
      for (const [name, step] of Object.entries(steps) as [keyof typeof steps, (i: number) => Promise<unknown>][]) {
        const t = await interleave({ undici, step }, { warmup: round === 0 ? WARMUP : 200, runs: BREAKDOWN_CALLS });
        await settle();
        const u = stats(t.undici).median;
        undiciMedians.push(u);
        ratios[name].push(stats(t.step).median / u);
      }
    }
    const r = (k: keyof typeof steps) => stats(ratios[k]).median;
    const undiciMedian = stats(undiciMedians).median;
    say(
      `  where the time goes (each step in its own blocks of ${BREAKDOWN_CALLS} calls against undici, ${BREAKDOWN_ROUNDS} rounds; in undici calls of ${undiciMedian.toFixed(3)} ms):` +
        ` egress guard, URL given as text ${r("guarded").toFixed(3)};` +
        ` + buildRequest ${(r("built") - r("guarded")).toFixed(3)};` +
        ` + validate, extract, record (executeDataTool) ${(r("noTrace") - r("built")).toFixed(3)};` +
        ` + trace write ${(r("insika") - r("noTrace")).toFixed(3)} = ${r("insika").toFixed(3)}`,
    );
    // The floor the trace row sets: one durable SQLite commit of the same row, no request at all.
    const sample = await executeDataTool(definition, { id: "42" }, ctx, {
      posture: deps.posture,
      secrets: deps.secrets,
      callId: "call_floor",
    });
    const commits = await interleave(
      {
        commit: async (i: number) =>
          insertToolCall(db, {
            turnId: "turn_bench",
            callId: `floor_${i}`,
            tool: "lookup_item",
            ok: true,
            startedAt: Date.now(),
            durationMs: 0,
            queuedMs: 0,
            record: { ...sample.record },
          }),
      },
      { warmup: WARMUP, runs: 3_000 },
    );
    const commit = stats(commits.commit).median;
    say(
      `  the trace row alone (one insert, its own commit, no request): ${commit.toFixed(3)} ms = ${((commit / undiciMedian) * 100).toFixed(0)}% of the undici call, before any other work`,
    );
  } finally {
    backend.stop();
    await direct.agent.close();
  }
  return rows;
}
