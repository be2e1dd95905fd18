import { describe, expect, it } from "vitest";
import { EventLog } from "./event-log";
import type { Model, ModelStreamPart } from "./ports";
import { streamModelStep } from "./stream-model-step";
import { recordingSink } from "./test-support";
import { MAX_TOOL_CALLS_PER_STEP } from "./turn-limits";

/** A model streaming `count` tool calls; `stopped` says whether the engine closed its stream early. */
function callingModel(count: number) {
  const state = { yielded: 0, stopped: false };
  const model: Model = {
    id: "many-calls",
    async *stream(): AsyncGenerator<ModelStreamPart> {
      try {
        for (; state.yielded < count; state.yielded += 1) {
          yield { type: "tool-call", call: { id: "same", name: "lookup", arguments: "{}" } };
        }
        yield { type: "finish" };
      } finally {
        state.stopped = state.yielded < count;
      }
    },
  };
  return { model, state };
}

const request = () => ({ messages: [], tools: [], signal: new AbortController().signal });

describe("streamModelStep: tool calls per step", () => {
  it("takes a step with MAX_TOOL_CALLS_PER_STEP calls", async () => {
    const { model } = callingModel(MAX_TOOL_CALLS_PER_STEP);
    const step = await streamModelStep(model, request(), new EventLog(recordingSink()));
    expect(step.toolCalls).toHaveLength(MAX_TOOL_CALLS_PER_STEP);
  });

  it("stops reading at the first call past it, naming the limit", async () => {
    const { model, state } = callingModel(50_000);
    await expect(streamModelStep(model, request(), new EventLog(recordingSink()))).rejects.toThrow(
      `the model asked for more than ${MAX_TOOL_CALLS_PER_STEP} tool calls in one step`,
    );
    expect(state.yielded).toBe(MAX_TOOL_CALLS_PER_STEP);
    expect(state.stopped).toBe(true);
  });
});
