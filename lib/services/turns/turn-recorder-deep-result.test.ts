/**
 * A tool backend answering JSON nested thousands of levels deep (well within the 1 MiB body
 * cap) must not take the turn down: the trace keeps such a result as text.
 */
import { describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { upsertAgent } from "@/db/queries/agents";
import { insertSession } from "@/db/queries/sessions";
import { insertTurn } from "@/db/queries/turns";
import { listTurnEvents } from "@/db/queries/traces";
import { runTurn } from "@/lib/engine/run-turn";
import { fakeExecutor, turnInput } from "@/lib/engine/test-support";
import { scriptedModel, text, toolCall } from "@/lib/providers/scripted";
import { agentRow } from "@/test/support/agent-row";
import { TurnRecorder } from "./turn-recorder";

describe("TurnRecorder: a deeply nested tool result", () => {
  it("is recorded (as text) and the turn completes", async () => {
    const db = openDb(":memory:");
    await upsertAgent(db, agentRow("a"));
    await insertSession(db, { id: "s", agentId: "a", tenant: null });
    await insertTurn(db, { id: "t", sessionId: "s", userMessage: "go" });
    const recorder = await TurnRecorder.open(db, "t", "s", {});
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const executor = fakeExecutor(() => ({ ok: true, content: deep }));
    const model = scriptedModel([[toolCall("lookup", { q: 1 })], [text("done")]]);
    const result = await runTurn(turnInput({ turnId: "t", model, executor, sink: recorder, checkpoints: recorder }));
    await recorder.end(result);
    expect(result).toMatchObject({ status: "completed", content: "done" });
    const events = await listTurnEvents(db, { turnId: "t" });
    const toolResult = events.find((e) => e.type === "tool_result");
    expect(toolResult?.data).toMatchObject({ ok: true, result: deep });
  });
});
