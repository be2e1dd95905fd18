import { describe, expect, it } from "vitest";
import { scriptedModel, text, toolCall } from "@/lib/providers/scripted";
import { MAX_ARGUMENT_CHARS, MAX_ARGUMENT_DEPTH } from "./parse-tool-arguments";
import { runTurn } from "./run-turn";
import { fakeExecutor, okOutcome, recordingSink, sleep, terminalEvents, turnInput } from "./test-support";

// Arguments a hostile model server can send: valid JSON, nested far deeper than any schema.
const tooDeep = `{"q":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;

describe("runTurn: deeply nested tool-call arguments", () => {
  it("answers the call with an error and lets its siblings and the turn finish", async () => {
    const sink = recordingSink();
    const executor = fakeExecutor(async () => {
      await sleep(20);
      return okOutcome({ found: 1 });
    });
    const model = scriptedModel([
      [toolCall("lookup", { q: "ok" }, { id: "fine" }), toolCall("lookup", tooDeep, { id: "deep" })],
      [text("done")],
    ]);
    const result = await runTurn(turnInput({ model, sink, executor, limits: { tool_concurrency: 4 } }));
    await sleep(50); // anything a stray sibling would still emit
    expect(result.status).toBe("completed");
    expect(executor.calls).toHaveLength(1);
    const results = sink.ofType("tool_result");
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.ok)).toMatchObject({
      error: `arguments are nested too deeply (more than ${MAX_ARGUMENT_DEPTH} levels)`,
    });
    expect(terminalEvents(sink)).toHaveLength(1);
    expect(sink.events.at(-1)?.type).toBe("turn_completed");
  });

  it("does the same one call at a time", async () => {
    const sink = recordingSink();
    const model = scriptedModel([[toolCall("lookup", tooDeep)], [text("done")]]);
    const result = await runTurn(turnInput({ model, sink }));
    expect(result.status).toBe("completed");
    expect(sink.ofType("tool_result")[0]).toMatchObject({ ok: false });
  });
});

describe("runTurn: tool-call arguments longer than MAX_ARGUMENT_CHARS", () => {
  it("refuses the call naming the length, and keeps the text nowhere: not in the events, not in the messages", async () => {
    const sink = recordingSink();
    const executor = fakeExecutor(async () => okOutcome({ found: 1 }));
    const long = `{"q":"${"x".repeat(MAX_ARGUMENT_CHARS)}"}`;
    const model = scriptedModel([
      [toolCall("lookup", { q: "ok" }, { id: "fine" }), toolCall("lookup", long, { id: "long" })],
      [text("done")],
    ]);
    const result = await runTurn(turnInput({ model, sink, executor, limits: { tool_concurrency: 4 } }));
    expect(result.status).toBe("completed");
    expect(executor.calls).toHaveLength(1);
    expect(sink.ofType("tool_result").find((r) => !r.ok)).toMatchObject({
      call_id: "long",
      error: `arguments are too long (${long.length} characters; at most ${MAX_ARGUMENT_CHARS}): the call was not run`,
    });
    expect(JSON.stringify(sink.events).length).toBeLessThan(10_000);
    expect(JSON.stringify(result.messages).length).toBeLessThan(10_000);
  });
});
