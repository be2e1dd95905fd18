import { describe, expect, it } from "vitest";
import type { Model, ModelStreamPart } from "@/lib/engine/ports";
import { tracedModel } from "./traced-model";
import type { ModelStepReport } from "./turn-spans";

function modelOf(parts: ModelStreamPart[], fail?: Error): Model {
  return {
    id: "m",
    async *stream() {
      for (const part of parts) yield part;
      if (fail) throw fail;
    },
  };
}

async function drain(model: Model, signal = new AbortController().signal) {
  const out: ModelStreamPart[] = [];
  for await (const part of model.stream({ messages: [], tools: [], signal })) out.push(part);
  return out;
}

describe("tracedModel", () => {
  it("passes every part through and reports the step once, with usage and calls", async () => {
    const reports: ModelStepReport[] = [];
    let t = 0;
    const parts: ModelStreamPart[] = [
      { type: "text-delta", text: "hi" },
      { type: "tool-call", call: { id: "1", name: "x", arguments: "{}" } },
      { type: "finish", usage: { inputTokens: 5, outputTokens: 2 } },
    ];
    const model = tracedModel(
      modelOf(parts),
      (r) => reports.push(r),
      () => (t += 10),
    );
    expect(await drain(model)).toEqual(parts);
    expect(reports).toEqual([{ startedAt: 10, endedAt: 20, toolCalls: 1, usage: { inputTokens: 5, outputTokens: 2 } }]);
  });

  it("reports the error of a failing stream and rethrows it; a throwing report is ignored", async () => {
    const reports: ModelStepReport[] = [];
    const model = tracedModel(modelOf([], new Error("provider down")), (r) => {
      reports.push(r);
      throw new Error("observer bug");
    });
    await expect(drain(model)).rejects.toThrow("provider down");
    expect(reports[0]?.error).toBe("provider down");
  });

  it("reports an abandoned stream (the engine returns the iterator on cancel)", async () => {
    const reports: ModelStepReport[] = [];
    const controller = new AbortController();
    const parts: ModelStreamPart[] = [
      { type: "text-delta", text: "a" },
      { type: "text-delta", text: "b" },
    ];
    const model = tracedModel(modelOf(parts), (r) => reports.push(r));
    const iterator = model.stream({ messages: [], tools: [], signal: controller.signal })[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort(new Error("turn cancelled"));
    await iterator.return?.();
    expect(reports).toHaveLength(1);
    expect(reports[0]!.error).toBe("turn cancelled");
  });
});
