import { describe, expect, it } from "vitest";
import type { ModelRequest, ModelStreamPart } from "@/lib/engine/ports";
import { scriptedModel, streamError, text, toolCall, usage } from "./scripted";

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: "user", content: "hi" }],
  tools: [{ name: "lookup", description: "d", parameters: { type: "object" } }],
  signal: new AbortController().signal,
  ...overrides,
});

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe("scriptedModel", () => {
  it("plays each step's parts and ends with a finish part carrying usage", async () => {
    const model = scriptedModel([
      [
        text("Hi "),
        toolCall("lookup", { q: 1 }),
        toolCall("lookup", '{"bad', { id: "mine" }),
        usage({ inputTokens: 3 }),
        usage({ outputTokens: 4 }),
      ],
    ]);
    expect(await collect(model.stream(request()))).toEqual([
      { type: "text-delta", text: "Hi " },
      { type: "tool-call", call: { id: "call_0_0", name: "lookup", arguments: '{"q":1}' } },
      { type: "tool-call", call: { id: "mine", name: "lookup", arguments: '{"bad' } },
      { type: "finish", usage: { inputTokens: 3, outputTokens: 4 } },
    ]);
  });

  it("records every request as it was sent, and lets a step look at it", async () => {
    const messages: ModelRequest["messages"] = [{ role: "user", content: "first" }];
    const model = scriptedModel([[text("a")], (seen) => [text(`you said ${seen.messages.length} things`)]]);
    await collect(model.stream(request({ messages })));
    messages.push({ role: "assistant", content: "a" });
    const parts = await collect(model.stream(request({ messages })));
    expect(parts[0]).toEqual({ type: "text-delta", text: "you said 2 things" });
    expect(model.requests.map((seen) => seen.messages.length)).toEqual([1, 2]);
    expect(model.requests[0]?.tools[0]?.name).toBe("lookup");
    expect(model.remaining).toBe(0);
  });

  it("throws a clear error when asked for more steps than scripted", async () => {
    const model = scriptedModel([[text("only")]]);
    await collect(model.stream(request()));
    await expect(collect(model.stream(request()))).rejects.toThrow(
      "scripted model: request 2 has no scripted step (only 1 scripted)",
    );
    expect(model.requests).toHaveLength(2);
  });

  it("throws mid-stream for an error part", async () => {
    const model = scriptedModel([[text("a"), streamError("provider 503")]]);
    const parts: ModelStreamPart[] = [];
    await expect(
      (async () => {
        for await (const part of model.stream(request())) parts.push(part);
      })(),
    ).rejects.toThrow("provider 503");
    expect(parts).toEqual([{ type: "text-delta", text: "a" }]);
  });

  it("delays parts and stops waiting when the request is aborted", async () => {
    const controller = new AbortController();
    const model = scriptedModel([[text("a", 20), text("b", 5_000)]]);
    const started = Date.now();
    const parts: ModelStreamPart[] = [];
    const run = (async () => {
      for await (const part of model.stream(request({ signal: controller.signal }))) {
        parts.push(part);
        controller.abort(new Error("stop"));
      }
    })();
    await expect(run).rejects.toThrow("stop");
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(parts).toEqual([{ type: "text-delta", text: "a" }]);
  });
});
