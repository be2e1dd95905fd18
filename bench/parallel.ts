/**
 * parallel: one turn whose model asks for N calls of a tool whose backend answers
 * after 200 ms, at a tool_concurrency of C (startTurn, persistence on). The baseline
 * is the same N requests sent with undici directly, C at a time: for 8 calls at 8
 * that is the slowest single call. At tool_concurrency 1 the turn should take 8 of
 * those. Runs alternate with the baseline; medians of the wall times.
 */
import { createSession } from "@/lib/services/sessions/create-session";
import { startTurn } from "@/lib/services/turns/start-turn";
import { text, toolCall } from "@/lib/providers/scripted";
import { benchEnv, freshDb, scriptedAgent, startBackendProcess, storeItemTool, undiciClient } from "./fixtures";
import { describe, interleave, pool, row, say, stats, type Goal, type Row } from "./harness";
import { tempDir } from "../test/support/temp-dir";

// The issue's goals are for 8 calls; 80 and 800 (tool_concurrency is at most 64) show the growth.
const CASES: { calls: number; concurrency: number; runs: number; goal?: Goal; vsSingle?: boolean }[] = [
  { calls: 8, concurrency: 8, runs: 15, goal: { on: "ratio", op: "<=", limit: 1.05 } },
  { calls: 8, concurrency: 1, runs: 5, goal: { on: "ratio", op: "<=", limit: 8, within: 0.4 }, vsSingle: true },
  { calls: 80, concurrency: 64, runs: 5 },
  { calls: 800, concurrency: 64, runs: 3 },
];

export default async function parallel(): Promise<Row[]> {
  const backend = await startBackendProcess();
  const scripts = tempDir("insika-scripts-");
  benchEnv(backend.port, { INSIKA_SCRIPTED_DIR: scripts });
  const db = freshDb();
  await storeItemTool(db, backend.url, "slow_item", "/slow");
  const direct = undiciClient(backend.url, "/slow");
  say(
    "parallel: backend answers GET /slow after 200 ms; insika = wall time of the whole turn (2 model steps, N calls, persistence); runs alternate with the baseline",
  );

  const rows: Row[] = [];
  let single = NaN; // the slowest single call, from the 8-at-8 case
  try {
    for (const c of CASES) {
      const agent = `par_${c.calls}_${c.concurrency}`;
      const calls = Array.from({ length: c.calls }, (_, k) => toolCall("slow_item", { id: String(k) }));
      await scriptedAgent(db, scripts, agent, [calls, [text("done")]], {
        tools: ["slow_item"],
        limits: { tool_concurrency: c.concurrency, max_tool_calls: 1000 },
      });
      const insika = async () => {
        const session = await createSession(db, { agentId: agent });
        const result = await (await startTurn(db, { sessionId: session.id, message: "go", actor: null })).done;
        if (result.status !== "completed") throw new Error(`turn ${result.status}: ${result.error ?? ""}`);
      };
      const undici = () => pool(c.calls, c.concurrency, (i) => direct.call(String(i)));
      const t = await interleave({ insika, undici }, { warmup: 1, runs: c.runs });
      const a = stats(t.insika);
      const b = stats(t.undici);
      if (c.calls === 8 && c.concurrency === 8) single = b.median;
      const baseline = c.vsSingle ? single : b.median;
      const label = `${c.calls} calls, tool_concurrency ${c.concurrency}`;
      say(`  ${label}: insika turn ${describe(a, "ms", 1)}`);
      say(
        `  ${label}: ${c.vsSingle ? "slowest single call (8 at 8, above)" : "undici, same calls"} ${c.vsSingle ? `${single.toFixed(1)} ms` : describe(b, "ms", 1)}   ratio ${(a.median / baseline).toFixed(3)}`,
      );
      rows.push(
        row({
          name: "parallel",
          size: label,
          metric: "turn wall time (median)",
          unit: "ms",
          value: a.median,
          baseline,
          ...(c.goal ? { goal: c.goal } : {}),
        }),
      );
    }
  } finally {
    backend.stop();
    await direct.agent.close();
  }
  return rows;
}
