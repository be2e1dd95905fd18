/**
 * A subagent's turn that is resumed (here: its process died, the resume pass takes it up)
 * still takes its children from its ancestors' budgets, rebuilt from the turns table: the
 * root's `limits.max_subagent_turns` holds across the resume.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { listMessages } from "@/db/queries/transcripts";
import { getTurn, insertTurn } from "@/db/queries/turns";
import { getTranscript } from "@/lib/services/sessions/sessions";
import { agentRow, TEST_AGENT_LIMITS } from "@/test/support/agent-row";
import { resumeTurn } from "./resume-turn";
import { startTurn } from "./start-turn";

// Before anything reads the (memoized) environment: where the scripted models' steps are.
const scripts = await vi.hoisted(async () => {
  const { tempDir } = await import("@/test/support/temp-dir");
  const dir = tempDir();
  process.env.INSIKA_SCRIPTED_DIR = dir;
  return dir;
});

const limits = (max: number) => ({ ...TEST_AGENT_LIMITS, max_subagent_turns: max });

const spawn = (agent: string, message: string) => [
  { type: "tool-call", name: "spawn_subagent", args: { agent, message } },
];

/** root (cap 2) may start mid (cap 10), which may start leaf (the offline demo model). */
async function agents() {
  const write = (name: string, script: unknown) =>
    fs.writeFileSync(path.join(scripts, `${name}.json`), JSON.stringify(script));
  write("root", [spawn("mid", "first"), [{ type: "text", text: "root done" }]]);
  write("mid", {
    turns: {
      first: [[{ type: "text", text: "mid done" }]],
      resumed: [spawn("leaf", "deeper"), [{ type: "text", text: "mid after" }]],
    },
  });
  const db = openDb(":memory:");
  await upsertAgent(db, agentRow("leaf"));
  await upsertAgent(
    db,
    agentRow("mid", { model: { provider: "scripted", model: "mid" }, subagents: ["leaf"], limits: limits(10) }),
  );
  await upsertAgent(
    db,
    agentRow("root", { model: { provider: "scripted", model: "root" }, subagents: ["mid"], limits: limits(2) }),
  );
  await insertSession(db, { id: "s_root", agentId: "root", tenant: null });
  return db;
}

describe("a resumed subagent's turn", () => {
  it("is refused a child turn the root's remaining budget does not allow", async () => {
    const db = await agents();
    const root = await startTurn(db, { sessionId: "s_root", message: "go", actor: null });
    expect((await root.done).status).toBe("completed");
    const [child] = (await listMessages(db, "s_root")).filter((m) => m.role === "tool");
    const first = JSON.parse(child!.content) as { turn_id: string; session_id: string; status: string };
    expect(first.status).toBe("completed");
    // The child's row names the turn that started it, and so does its session's transcript.
    expect((await getTurn(db, first.turn_id))?.parentTurnId).toBe(root.turnId);
    const transcript = await getTranscript(db, first.session_id, { afterSeq: 0, limit: 10 });
    expect(transcript.turns.map((t) => t.parent_turn_id)).toEqual([root.turnId]);
    expect((await getTranscript(db, "s_root", { afterSeq: 0, limit: 10 })).turns[0]?.parent_turn_id).toBeNull();

    // A second child of the root, started before its process died (lease long expired): the
    // root's subtree now holds 2 turns, its whole cap, while mid's own cap (10) is untouched.
    await insertSession(db, { id: "s_mid", agentId: "mid", tenant: null });
    await insertTurn(db, {
      id: "turn_mid",
      sessionId: "s_mid",
      userMessage: "resumed",
      depth: 1,
      parentTurnId: root.turnId,
      runner: { instance: "ins_dead", pid: 4242, leaseUntil: 10_000 },
    });
    const resumed = await resumeTurn(db, "turn_mid");
    expect(await resumed.done).toMatchObject({ status: "completed", content: "mid after" });
    const [refusal] = (await listMessages(db, "s_mid")).filter((m) => m.role === "tool");
    expect(JSON.parse(refusal!.content)).toEqual({
      error:
        "subagent turn limit reached: an ancestor turn and its subagents may start at most 2 child turn(s) (limits.max_subagent_turns); 2 already started, 1 more asked for",
    });
    // No leaf turn was started: the root and its two children are all there is.
    const [count] = await db.execute<{ n: number }>(sql`select count(*) as n from turns`);
    expect(Number(count?.n)).toBe(3);
  });
});
