import { describe, expect, it } from "vitest";
import { scriptedModel, streamError, text, toolCall } from "@/lib/providers/scripted";
import type { Model, TurnCheckpoint } from "./ports";
import { runTurn } from "./run-turn";
import {
  fakeExecutor,
  okOutcome,
  recordingSink,
  sleep,
  toolSpec,
  turnInput,
  type TurnInputOverrides,
} from "./test-support";
import { faultOf, TURN_FAILURE_CODES, type TurnFailureCode, type TurnFault } from "./turn-failure";

/** A model whose first request fails with `error`. */
function failingModel(error: unknown): Model {
  return {
    id: "failing",
    stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) }),
  };
}

const coded = (message: string, failureCode: unknown) => Object.assign(new Error(message), { failureCode });

/** Runs a turn and checks that its result and its turn_failed event say the same failure. */
async function expectFailure(
  overrides: TurnInputOverrides,
  code: TurnFailureCode,
  fault: TurnFault,
  error?: string | RegExp,
) {
  const sink = recordingSink();
  const result = await runTurn(turnInput({ sink, ...overrides }));
  expect(result).toMatchObject({ status: "failed", code, fault });
  if (error !== undefined) expect(result.error).toMatch(error);
  if (!overrides.sink) expect(sink.events.at(-1)).toEqual({ type: "turn_failed", error: result.error, code, fault });
  return result;
}

describe("turn failures carry a code and a fault", () => {
  it("every code has its fault", () => {
    expect(Object.fromEntries(TURN_FAILURE_CODES.map((code) => [code, faultOf(code)]))).toEqual({
      model_error: "model",
      model_configuration: "configuration",
      provider_secret_missing: "configuration",
      provider_blocked: "configuration",
      invalid_limits: "configuration",
      agent_deleted: "configuration",
      tool_call_limit: "limit",
      turn_timeout: "limit",
      cancelled: "cancelled",
      checkpoint_failed: "system",
      event_sink_failed: "system",
      resume_failed: "system",
      lease_lost: "system",
      recording_failed: "system",
      internal_error: "system",
    });
  });

  it("model_error: the provider failed", async () => {
    await expectFailure(
      { model: scriptedModel([[streamError("upstream 503")]]) },
      "model_error",
      "model",
      "model error: upstream 503",
    );
  });

  it("a model error naming a configuration code keeps it, and the text is unchanged", async () => {
    for (const code of ["model_configuration", "provider_secret_missing", "provider_blocked"] as const) {
      await expectFailure({ model: failingModel(coded("no key", code)) }, code, "configuration", "model error: no key");
    }
  });

  it("a model error naming any other code (hostile or unknown) stays model_error", async () => {
    for (const failureCode of [
      "cancelled",
      "lease_lost",
      "internal_error",
      "nonsense",
      42,
      null,
      { toString: () => "provider_blocked" },
    ]) {
      await expectFailure(
        { model: failingModel(coded("odd", failureCode)) },
        "model_error",
        "model",
        "model error: odd",
      );
    }
    await expectFailure({ model: failingModel("a string") }, "model_error", "model", "model error: a string");
  });

  it("invalid_limits", async () => {
    await expectFailure(
      { model: scriptedModel([]), limits: { max_tool_calls: -1 } },
      "invalid_limits",
      "configuration",
      /^invalid limits: /,
    );
  });

  it("tool_call_limit", async () => {
    const model = scriptedModel([[toolCall("lookup", {}), toolCall("lookup", {})]]);
    await expectFailure(
      { model, limits: { max_tool_calls: 1 } },
      "tool_call_limit",
      "limit",
      "tool call limit exceeded (1)",
    );
  });

  it("turn_timeout", async () => {
    const model = scriptedModel([[text("slow", 2_000)]]);
    await expectFailure(
      { model, limits: { turn_timeout: 0.05 } },
      "turn_timeout",
      "limit",
      "turn timed out after 0.05s",
    );
  });

  it("cancelled", async () => {
    const controller = new AbortController();
    const executor = fakeExecutor(async (request) => {
      controller.abort();
      await sleep(1_000, request.signal);
      return okOutcome("late");
    });
    const model = scriptedModel([[toolCall("lookup", {})], [text("never")]]);
    await expectFailure({ model, executor, signal: controller.signal }, "cancelled", "cancelled", "turn cancelled");
  });

  it("checkpoint_failed: a save, or the call journal", async () => {
    const model = () => scriptedModel([[toolCall("lookup", {})], [text("done")]]);
    const failSave = { save: () => Promise.reject(new Error("disk full")) };
    await expectFailure(
      { model: model(), checkpoints: failSave },
      "checkpoint_failed",
      "system",
      "checkpoint failed: disk full",
    );
    const failJournal = { save: () => undefined, callStarted: () => Promise.reject(new Error("journal full")) };
    const executor = fakeExecutor();
    await expectFailure(
      { model: model(), checkpoints: failJournal, executor },
      "checkpoint_failed",
      "system",
      "checkpoint failed: journal full",
    );
    expect(executor.calls).toHaveLength(0); // no journal row, no call
  });

  it("event_sink_failed, or lease_lost when the sink's error says so", async () => {
    const events: string[] = [];
    const sink = (error: Error) => ({
      emit(event: { type: string }) {
        events.push(event.type);
        if (event.type === "text_delta") throw error;
      },
    });
    const model = () => scriptedModel([[text("hi")]]);
    await expectFailure(
      { model: model(), sink: sink(new Error("disk full")) },
      "event_sink_failed",
      "system",
      "event sink failed: disk full",
    );
    await expectFailure(
      { model: model(), sink: sink(coded("taken over", "lease_lost")) },
      "lease_lost",
      "system",
      "event sink failed: taken over",
    );
    await expectFailure({ model: model(), sink: sink(coded("odd", "model_error")) }, "event_sink_failed", "system");
    expect(events.at(-1)).toBe("turn_failed");
  });

  it("a call whose processing throws fails the turn only once its parallel siblings are done", async () => {
    // A bug in the engine's own bookkeeping of one call (here: the executor's sideEffect port
    // throwing for it, after its result was traced) while a sibling is still running. Nothing of
    // the batch may be written after the turn's terminal event, and the sibling's result is traced.
    const sink = recordingSink();
    const executor = Object.assign(
      fakeExecutor(async (request) => {
        if (request.callId === "slow") await sleep(40);
        return okOutcome({ done: request.callId });
      }),
      {
        sideEffect: (tool: string) => {
          if (tool === "broken") throw new Error("no such tool in the catalog");
          return true;
        },
      },
    );
    const model = scriptedModel([
      [toolCall("broken", {}, { id: "fast" }), toolCall("lookup", {}, { id: "slow" })],
      [text("never asked")],
    ]);
    await expectFailure(
      { model, sink, executor, tools: [toolSpec("broken"), toolSpec("lookup")], limits: { tool_concurrency: 4 } },
      "internal_error",
      "system",
      /no such tool in the catalog/,
    );
    await sleep(60); // what a sibling still running would write
    expect(sink.events.at(-1)?.type).toBe("turn_failed");
    expect(sink.ofType("tool_result").map((e) => e.call_id)).toEqual(["fast", "slow"]);
  });

  it("resume_failed: a checkpoint that cannot be continued", async () => {
    const checkpoint: TurnCheckpoint = {
      turnId: "turn-1",
      step: 0,
      messages: [{ role: "assistant", content: "?" }],
      completedCalls: [],
    };
    await expectFailure(
      { model: scriptedModel([]), resume: { checkpoint, completed: [], inFlight: [] } },
      "resume_failed",
      "system",
      /^resume failed: /,
    );
  });

  it("internal_error: anything else that breaks the loop", async () => {
    let reads = 0;
    const clock = {
      now: () => {
        reads += 1;
        if (reads > 1) throw new Error("clock broke");
        return 0;
      },
    };
    const model = scriptedModel([[toolCall("lookup", {})], [text("done")]]);
    await expectFailure(
      { model, clock, tools: [toolSpec("lookup")] },
      "internal_error",
      "system",
      "internal error: clock broke",
    );
  });

  it("a completed turn carries no code", async () => {
    const result = await runTurn(turnInput({ model: scriptedModel([[text("fine")]]) }));
    expect(result.status).toBe("completed");
    expect(result).not.toHaveProperty("code");
    expect(result).not.toHaveProperty("fault");
  });
});
