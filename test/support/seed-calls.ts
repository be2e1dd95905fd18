/**
 * Test-only: a history of turns and tool calls written with the db queries (as the recorder
 * writes them, without events), spread over a time span, for the Overview's tests, e2e and
 * the studio bench (1,000,000 calls). Deterministic: call i's tool, outcome and duration
 * follow from i, so a test can count what it expects.
 */
import type { Db } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertToolCall } from "@/db/queries/traces";
import { insertTurn, updateTurnStatus } from "@/db/queries/turns";
import { agentRow } from "./agent-row";

export interface SeedCallsOptions {
  calls: number;
  /** The newest call's time; calls are spread evenly over `spanMs` before it. */
  now: number;
  spanMs: number;
  agents?: string[];
  tools?: string[];
  callsPerTurn?: number;
  turnsPerSession?: number;
  /** Every n-th call fails with HTTP 500 (0 = none). */
  errorEvery?: number;
  /** Every n-th call is refused by the egress guard (0 = none). */
  blockedEvery?: number;
  /** The tenant of session i (default: none). */
  tenantOf?: (sessionIndex: number) => string | null;
}

export const SEED_TOOLS = ["get_order", "search_catalog", "refund_order", "fetch_page", "subscribe"];

/** Duration of call i of `tool`: each tool has its own typical latency and a slow tail. */
export function seededDuration(toolIndex: number, i: number): number {
  const base = [4, 12, 40, 120, 8][toolIndex % 5]!;
  return i % 20 === 0 ? base * 10 : base + (i % 7);
}

export async function seedCalls(db: Db, options: SeedCallsOptions): Promise<void> {
  const agents = options.agents ?? ["support", "billing"];
  const tools = options.tools ?? SEED_TOOLS;
  const perTurn = options.callsPerTurn ?? 10;
  const perSession = options.turnsPerSession ?? 10;
  const errorEvery = options.errorEvery ?? 17;
  const blockedEvery = options.blockedEvery ?? 101;
  const step = options.spanMs / Math.max(1, options.calls);
  const start = options.now - options.spanMs;
  for (const agent of agents) await upsertAgent(db, agentRow(agent, { name: agent }));
  const write = (from: number, to: number) =>
    db.transaction(async (db) => {
      for (let i = from; i < to; i += 1) {
        const at = Math.round(start + i * step);
        const turnIndex = Math.floor(i / perTurn);
        const turnId = `seed_t${turnIndex}`;
        if (i % perTurn === 0) {
          const sessionIndex = Math.floor(turnIndex / perSession);
          const sessionId = `seed_s${sessionIndex}`;
          if (turnIndex % perSession === 0)
            await insertSession(db, {
              id: sessionId,
              agentId: agents[sessionIndex % agents.length]!,
              tenant: options.tenantOf?.(sessionIndex) ?? null,
              now: at,
            });
          await insertTurn(db, { id: turnId, sessionId, userMessage: `seeded turn ${turnIndex}`, now: at });
          const failed = turnIndex % 23 === 0;
          await updateTurnStatus(db, {
            id: turnId,
            status: failed ? "failed" : "completed",
            content: failed ? null : "done",
            error: failed ? "model error: seeded" : null,
            usage: { inputTokens: 100 + (turnIndex % 50), outputTokens: 20 + (turnIndex % 10) },
            now: at + 50,
          });
        }
        const toolIndex = i % tools.length;
        const tool = tools[toolIndex]!;
        const blocked = blockedEvery > 0 && i % blockedEvery === 0;
        const failed = blocked || (errorEvery > 0 && i % errorEvery === 0);
        const durationMs = blocked ? 0 : seededDuration(toolIndex, i);
        const callId = `call_${i}`;
        await insertToolCall(db, {
          turnId,
          callId,
          tool,
          ok: !failed,
          startedAt: at,
          durationMs,
          queuedMs: 0,
          record: {
            call_id: callId,
            tool,
            kind: "data",
            arguments: { id: i },
            request: blocked ? null : { method: "GET", url: `https://api.example.com/${tool}/${i}`, headers: {} },
            status: blocked ? null : failed ? 500 : 200,
            ok: !failed,
            duration_ms: durationMs,
            result: failed ? '{"error":"HTTP 500"}' : '{"ok":true}',
            ...(failed ? { error: blocked ? "destination blocked: 10.0.0.5 is a private address" : "HTTP 500" } : {}),
            ...(blocked
              ? { egress: { verdict: "blocked", rule: "private-address", hint: "set INSIKA_EGRESS_ALLOW_PRIVATE=1" } }
              : { egress: { verdict: "allowed", rule: "public", hint: null } }),
          },
        });
      }
    });
  for (let from = 0; from < options.calls; from += 10_000) await write(from, Math.min(options.calls, from + 10_000));
}
