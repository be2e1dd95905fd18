/**
 * trace-write: engine events persisted per second by the TurnRecorder (the
 * EventSink a turn writes through: every event awaited until committed, as the
 * engine does; the events of turns running at the same time share a group commit; a
 * tool result is written together with its call record) against raw better-sqlite3
 * prepared INSERTs of the same rows, one commit per event (or per tool result and its
 * record). A turn's 20 events: turn_started, 5 x (text_delta, tool_call, tool_result),
 * 3 text_delta, turn_completed. Blocks of 10 concurrent turns alternate between the
 * sides, into the same database.
 */
import type { SqliteDatabase } from "@/db/sqlite-database";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import type { EngineEvent } from "@/lib/engine/ports";
import { putAgent } from "@/lib/services/agents/agents";
import { TurnRecorder } from "@/lib/services/turns/turn-recorder";
import { freshDb, sampleCallRecord } from "./fixtures";
import { describe, row, say, stats, type Row } from "./harness";
import { operatorPrincipal } from "@/lib/access/principal";

const OPERATOR = operatorPrincipal("api");

const SIZES = [1_000, 10_000, 100_000];
const BLOCK = 10; // turns: 200 events
const WARMUP_BLOCKS = 5;

/** A turn's events as the bench writes them (the postgres bench writes the same). */
export function turnEvents(turnId: string): EngineEvent[] {
  const events: EngineEvent[] = [{ type: "turn_started", turn_id: turnId }];
  for (let k = 0; k < 5; k += 1) {
    const callId = `call_${k}`;
    const record = sampleCallRecord(callId);
    events.push(
      { type: "text_delta", text: "Let me look that up. " },
      { type: "tool_call", call_id: callId, tool: "lookup_item", arguments: { id: String(k) } },
      {
        type: "tool_result",
        call_id: callId,
        tool: "lookup_item",
        ok: true,
        result: record.result,
        duration_ms: 1.3,
        queued_ms: 0,
        record,
      },
    );
  }
  events.push(
    { type: "text_delta", text: "Found it: " },
    { type: "text_delta", text: "a desk lamp " },
    { type: "text_delta", text: "in stock." },
  );
  events.push({ type: "turn_completed", content: "Found it: a desk lamp in stock." });
  return events;
}
const PER_TURN = turnEvents("t").length;

/** The same rows and commits as the recorder, with hand-written SQL. */
function rawWriter(db: SqliteDatabase) {
  const client = db.client;
  const event = client.prepare("insert into events (turn_id, seq, type, data, at) values (?, ?, ?, ?, ?)");
  const call = client.prepare(
    "insert into tool_calls (turn_id, call_id, tool, ok, started_at, duration_ms, queued_ms, record) values (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const result = client.transaction(
    (turnId: string, seq: number, e: Extract<EngineEvent, { type: "tool_result" }>, at: number) => {
      const { type, record, ...summary } = e;
      const ms = Math.round(e.duration_ms);
      call.run(
        turnId,
        e.call_id,
        e.tool,
        e.ok ? 1 : 0,
        at - e.duration_ms,
        ms,
        Math.round(e.queued_ms),
        JSON.stringify({ ...(record as object), duration_ms: ms, queued_ms: 0, halted: false }),
      );
      event.run(turnId, seq, type, JSON.stringify(summary), at);
    },
  );
  return (turnId: string, events: EngineEvent[]) => {
    events.forEach((e, i) => {
      const at = Date.now();
      if (e.type === "tool_result") result(turnId, i + 1, e, at);
      else {
        const { type, ...data } = e;
        event.run(turnId, i + 1, type, JSON.stringify(data), at);
      }
    });
  };
}

export default async function traceWrite(): Promise<Row[]> {
  const db = freshDb();
  await putAgent(db, OPERATOR, "bench", { model: { provider: "demo", model: "demo" } });
  const raw = rawWriter(db);
  let n = 0;
  const newTurn = async () => {
    const id = `t${(n += 1)}`;
    await insertSession(db, { id: `s${n}`, agentId: "bench", tenant: null });
    await insertTurn(db, { id, sessionId: `s${n}`, userMessage: "bench" });
    return { id, session: `s${n}`, events: turnEvents(id) };
  };
  const sides = {
    insika: async (turns: Awaited<ReturnType<typeof newTurn>>[]) => {
      await Promise.all(
        turns.map(async (t) => {
          const recorder = await TurnRecorder.open(db, t.id, t.session);
          for (const e of t.events) await recorder.emit(e);
        }),
      );
    },
    raw: async (turns: Awaited<ReturnType<typeof newTurn>>[]) => {
      for (const t of turns) raw(t.id, t.events);
    },
  };
  say(
    `trace-write: ${PER_TURN} events per turn (5 tool results, each with its call record), blocks of ${BLOCK} concurrent turns alternating, ${WARMUP_BLOCKS} warm-up blocks each per size; turn rows made outside the timing`,
  );
  const rows: Row[] = [];
  for (const size of SIZES) {
    const blocks = Math.max(2, Math.round(size / PER_TURN / BLOCK));
    const rates: Record<keyof typeof sides, number[]> = { insika: [], raw: [] };
    for (let b = -WARMUP_BLOCKS; b < blocks; b += 1) {
      const order = b % 2 === 0 ? (["insika", "raw"] as const) : (["raw", "insika"] as const);
      for (const side of order) {
        const turns: Awaited<ReturnType<typeof newTurn>>[] = [];
        for (let i = 0; i < BLOCK; i += 1) turns.push(await newTurn());
        const t = performance.now();
        await sides[side](turns);
        if (b >= 0) rates[side].push((BLOCK * PER_TURN * 1000) / (performance.now() - t));
      }
    }
    const [a, r] = [stats(rates.insika), stats(rates.raw)];
    const events = blocks * BLOCK * PER_TURN;
    say(`  ${events} events per side: insika ${describe(a, "events/s", 0)}`);
    say(
      `  ${events} events per side: raw    ${describe(r, "events/s", 0)}   ratio of medians ${(a.median / r.median).toFixed(3)}`,
    );
    rows.push(
      row({
        name: "trace-write",
        size: `${events} events`,
        metric: "events persisted per second (median of blocks)",
        unit: "events/s",
        value: a.median,
        baseline: r.median,
        goal: { on: "ratio", op: ">=", limit: 0.8 },
      }),
    );
  }
  return rows;
}
