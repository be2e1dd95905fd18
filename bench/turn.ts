/**
 * turn: whole turns at concurrency 16 — model step, one loopback tool call, model
 * step, answer — Insika (startTurn: scripted model, the real services, every event,
 * journal entry, checkpoint and message persisted to SQLite) against the AI SDK's
 * generateText loop (a mock LanguageModelV3, a zod tool calling the same backend
 * with undici), and against that loop plus the trace a user would write by hand
 * (handWrittenTrace: the same rows into SQLite, one transaction per turn). A fourth side,
 * "bare", makes only the tool's HTTP call, so overhead per turn = (round time - bare round
 * time) / turns in the round.
 * Rounds of the four sides are interleaved (order rotating). After the rated rounds, more
 * rounds say where each side's time goes (turn-costs.ts). Peak RSS is measured per side in a
 * fresh process.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { generateText, stepCountIs, tool, type LanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { createSession } from "@/lib/services/sessions/create-session";
import { startTurn } from "@/lib/services/turns/start-turn";
import { text, toolCall } from "@/lib/providers/scripted";
import { benchEnv, freshDb, scriptedAgent, startBackendProcess, storeItemTool, undiciClient } from "./fixtures";
import { describe, peakRssMb, pool, rotated, row, rssMb, say, stats, type Row } from "./harness";
import { inChild } from "./run";
import { costRows, measureSideCosts, type SideCostMeter } from "./turn-costs";
import { tempDir } from "../test/support/temp-dir";

const CONCURRENCY = 16;
const SIZES = [160, 1_600, 16_000];
const ROUNDS = 10;
/**
 * Warm-up turns per side before any size is measured, in rounds of 160 with the sides
 * interleaved. V8 needs about this many turns to finish optimizing either side's code (a
 * 16-turn wave takes about twice as long after 160 turns as after 1,600, on both sides); with
 * less, the 160-turn rows measured the JIT's progress rather than a running server.
 */
const WARMUP_TURNS = 1_600;
/** Rounds of 160 turns a side measured for where the time goes, after the rated ones. */
const COST_ROUNDS = 10;

type Side = "insika" | "aisdk" | "traced" | "bare";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The AI SDK side's model: a tool call first, the answer once it has seen the tool result. */
function mockModel(): LanguageModel {
  const mock: MockLanguageModelV3 = new MockLanguageModelV3({
    doGenerate: async (options) => {
      // The mock keeps every call's options (the whole prompt) for tests to inspect; a model
      // a user runs keeps nothing, and the kept prompts grew this side's heap by ~1 GB over a
      // run (its garbage collections and peak RSS with it).
      mock.doGenerateCalls.length = 0;
      const answered = options.prompt.some((m) => m.role === "tool");
      return answered
        ? {
            content: [{ type: "text", text: "Found: a desk lamp." }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: [
              { type: "text", text: "Let me look. " },
              {
                type: "tool-call",
                toolCallId: `call_${Math.random().toString(36).slice(2)}`,
                toolName: "lookup_item",
                input: '{"id":"42"}',
              },
            ],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
    },
  });
  return mock;
}

/**
 * The second, fair baseline: what a user who wants a trace writes by hand around the AI SDK
 * loop. The same messages, tool calls and results of each turn inserted into SQLite with
 * better-sqlite3 prepared statements, one transaction per turn, WAL with synchronous=NORMAL
 * (Insika's setting for a turn whose calls have no side effects).
 */
function handWrittenTrace() {
  const file = path.join(tempDir("insika-bench-trace-"), "trace.db");
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.exec(`
    create table messages (id integer primary key, turn_id text not null, role text not null, content text not null, tool_calls text, created_at integer not null);
    create table tool_calls (id integer primary key, turn_id text not null, call_id text not null, tool text not null, arguments text not null, result text, created_at integer not null);
    create index messages_turn on messages (turn_id, id);
    create index tool_calls_turn on tool_calls (turn_id, id);`);
  const message = sqlite.prepare(
    "insert into messages (turn_id, role, content, tool_calls, created_at) values (?, ?, ?, ?, ?)",
  );
  const call = sqlite.prepare(
    "insert into tool_calls (turn_id, call_id, tool, arguments, result, created_at) values (?, ?, ?, ?, ?, ?)",
  );
  interface Step {
    text: string;
    toolCalls: readonly { toolCallId: string; toolName: string; input: unknown }[];
    toolResults: readonly { toolCallId: string; toolName: string; input: unknown; output: unknown }[];
  }
  type Steps = readonly Step[];
  const write = sqlite.transaction((turnId: string, prompt: string, steps: Steps) => {
    const now = Date.now();
    message.run(turnId, "user", prompt, null, now);
    for (const step of steps) {
      const calls = step.toolCalls.map((c) => ({
        id: c.toolCallId,
        name: c.toolName,
        arguments: JSON.stringify(c.input),
      }));
      message.run(turnId, "assistant", step.text, calls.length ? JSON.stringify(calls) : null, now);
      for (const r of step.toolResults) {
        const output = JSON.stringify(r.output);
        call.run(turnId, r.toolCallId, r.toolName, JSON.stringify(r.input), output, now);
        message.run(turnId, "tool", output, null, now);
      }
    }
  });
  return { record: (turnId: string, prompt: string, steps: Steps) => write(turnId, prompt, steps) };
}

/** Sets up the sides against one backend; `round(side, n)` runs n turns of a side at concurrency 16. */
async function setup() {
  const backend = await startBackendProcess();
  const scripts = tempDir("insika-scripts-");
  benchEnv(backend.port, { INSIKA_SCRIPTED_DIR: scripts });
  const db = freshDb();
  await storeItemTool(db, backend.url);
  await scriptedAgent(
    db,
    scripts,
    "bench",
    [[text("Let me look. "), toolCall("lookup_item", { id: "42" })], [text("Found: a desk lamp.")]],
    { tools: ["lookup_item"] },
  );
  const direct = undiciClient(backend.url);
  const model = mockModel();
  const tools = {
    lookup_item: tool({
      description: "Look up an item of the store by id",
      inputSchema: z.object({ id: z.string() }),
      execute: ({ id }) => direct.call(id),
    }),
  };

  // A fresh session per turn, created before the round starts (POST /v1/sessions is its own request).
  let sessions: string[] = [];
  const prepare = async (turns: number) => {
    sessions = [];
    for (let i = 0; i < turns; i += 1) sessions.push((await createSession(db, { agentId: "bench" })).id);
  };
  const trace = handWrittenTrace();
  const turn: Record<Side, (i: number) => Promise<unknown>> = {
    insika: async (i) => {
      const result = await (
        await startTurn(db, { sessionId: sessions[i] ?? "", message: "find item 42", actor: null })
      ).done;
      if (result.status !== "completed") throw new Error(`insika turn ${result.status}: ${result.error ?? ""}`);
    },
    aisdk: async () => {
      const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: "find item 42" });
      if (result.steps.length !== 2) throw new Error("the AI SDK turn did not call the tool");
    },
    traced: async (i) => {
      const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: "find item 42" });
      if (result.steps.length !== 2) throw new Error("the AI SDK turn did not call the tool");
      trace.record(`t_${i}_${Math.random().toString(36).slice(2)}`, "find item 42", result.steps);
    },
    bare: () => direct.call("42"),
  };
  /** CPU ms this process spent per side (user + system), for the printout. */
  const cpu: Record<Side, number> = { insika: 0, aisdk: 0, traced: 0, bare: 0 };
  /** Runs `turns` turns of one side at concurrency 16 (through `meter` when given); returns the wall time in ms. */
  const round = async (side: Side, turns: number, meter?: SideCostMeter<Side>): Promise<number> => {
    if (side === "insika") await prepare(turns);
    const [t, c] = [performance.now(), process.cpuUsage()];
    const run = () => pool(turns, CONCURRENCY, turn[side]);
    await (meter ? meter.measure(side, turns, run) : run());
    const used = process.cpuUsage(c);
    cpu[side] += (used.user + used.system) / 1000;
    return performance.now() - t;
  };
  return { round, cpu, stop: () => backend.stop() };
}

/** Sub-measurement run in a fresh process: peak RSS after `turns` turns of one side. */
export async function child([, side, turns]: string[]): Promise<{ start: number; peak: number }> {
  const { round, stop } = await setup();
  const start = rssMb();
  await round(side as Side, Number(turns));
  stop();
  return { start, peak: peakRssMb() };
}

export default async function turnBench(): Promise<Row[]> {
  const { round, cpu, stop } = await setup();
  say(
    `turn: concurrency ${CONCURRENCY}, ${ROUNDS} rounds per size, sides interleaved per round (order rotating), ${WARMUP_TURNS} warm-up turns per side (rounds of 160, interleaved)`,
  );
  const rows: Row[] = [];
  const sides: Side[] = ["insika", "aisdk", "traced", "bare"];
  const warm: Record<Side, number> = { insika: 0, aisdk: 0, traced: 0, bare: 0 };
  for (let r = 0; r < WARMUP_TURNS / 160; r += 1) for (const side of sides) warm[side] += await round(side, 160);
  say(
    `  warm-up (${WARMUP_TURNS} turns per side): ${sides.map((side) => `${side} ${((WARMUP_TURNS / warm[side]) * 1000).toFixed(0)}/s`).join(", ")}`,
  );
  for (const size of SIZES) {
    const perRound = size / ROUNDS;
    const times: Record<Side, number[]> = { insika: [], aisdk: [], traced: [], bare: [] };
    for (const side of sides) cpu[side] = 0;
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const side of rotated(sides, r)) times[side].push(await round(side, perRound));
    }
    const total = (side: Side) => times[side].reduce((a, b) => a + b, 0);
    const tput = (side: Side) => (size / total(side)) * 1000;
    const overhead = (side: Side) => stats(times[side].map((t, i) => (t - (times.bare[i] ?? 0)) / perRound));
    const [oi, oa] = [overhead("insika"), overhead("aisdk")];
    say(
      `  ${size} turns (${ROUNDS} rounds of ${perRound}): insika ${tput("insika").toFixed(0)} turns/s, AI SDK ${tput("aisdk").toFixed(0)} turns/s, AI SDK + hand-written SQLite trace ${tput("traced").toFixed(0)} turns/s, bare tool call ${tput("bare").toFixed(0)} calls/s`,
    );
    say(`    overhead per turn, insika: ${describe(oi)}`);
    say(`    overhead per turn, AI SDK: ${describe(oa)}`);
    // The rows use the whole size's times; the spread of the rounds' ratios says how far one run's verdict holds.
    const ratios = (baseline: Side) => stats(times.insika.map((t, i) => (times[baseline][i] ?? NaN) / t));
    say(`    Insika's turns/s over the AI SDK loop's, per round: ${describe(ratios("aisdk"), "x")}`);
    say(`    Insika's turns/s over the traced loop's, per round: ${describe(ratios("traced"), "x")}`);
    say(
      `    CPU of this process per turn (the backend runs elsewhere): insika ${(cpu.insika / size).toFixed(3)} ms, AI SDK ${(cpu.aisdk / size).toFixed(3)} ms, bare ${(cpu.bare / size).toFixed(3)} ms`,
    );
    const size_ = `${size} turns`;
    rows.push(
      row({
        name: "turn",
        size: size_,
        metric: "throughput",
        unit: "turns/s",
        value: tput("insika"),
        baseline: tput("aisdk"),
        goal: { on: "ratio", op: ">=", limit: 1 },
      }),
      row({
        name: "turn",
        size: size_,
        metric: "overhead per turn p50",
        unit: "ms",
        value: oi.median,
        baseline: oa.median,
        goal: { on: "value", op: "<=", limit: 0.3 },
      }),
      row({ name: "turn", size: size_, metric: "overhead per turn p95", unit: "ms", value: oi.p95, baseline: oa.p95 }),
      row({
        name: "turn vs AI SDK + hand-written trace",
        size: size_,
        metric: "throughput",
        unit: "turns/s",
        value: tput("insika"),
        baseline: tput("traced"),
        goal: { on: "ratio", op: ">=", limit: 1.5 },
      }),
    );
  }
  // Where the time goes: more rounds, SQLite's statements timed (turn-costs.ts); rows without goals.
  const costs = await measureSideCosts(sides, COST_ROUNDS, (side, meter) => round(side, 160, meter));
  rows.push(...costRows(costs, `${COST_ROUNDS} rounds of 160 turns`, { cpu: "aisdk", sqlite: "traced" }));
  stop();
  say("  peak RSS: each side alone in a fresh process, same setup, N turns at concurrency 16");
  for (const size of SIZES) {
    const ins = await inChild<{ start: number; peak: number }>("turn", ["rss", "insika", String(size)]);
    const sdk = await inChild<{ start: number; peak: number }>("turn", ["rss", "aisdk", String(size)]);
    say(
      `    ${size} turns: insika ${ins.peak.toFixed(0)} MiB (after setup ${ins.start.toFixed(0)}), AI SDK ${sdk.peak.toFixed(0)} MiB (after setup ${sdk.start.toFixed(0)})`,
    );
    rows.push(
      row({
        name: "turn",
        size: `${size} turns`,
        metric: "peak RSS",
        unit: "MiB",
        value: ins.peak,
        baseline: sdk.peak,
      }),
    );
  }
  return rows;
}
