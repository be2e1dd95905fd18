import { describe, expect, it } from "vitest";
import { OrderedEmitter } from "./ordered-emitter";
import type { EngineEvent } from "./ports";
import { sleep } from "./test-support";

const delta = (text: string): EngineEvent => ({ type: "text_delta", text });

describe("OrderedEmitter", () => {
  it("delivers in call order even when an earlier emit is slower", async () => {
    const delivered: string[] = [];
    const emitter = new OrderedEmitter({
      async emit(event) {
        if (event.type === "text_delta") {
          await sleep(event.text === "first" ? 30 : 1);
          delivered.push(event.text);
        }
      },
    });
    await Promise.all([emitter.emit(delta("first")), emitter.emit(delta("second")), emitter.emit(delta("third"))]);
    expect(delivered).toEqual(["first", "second", "third"]);
  });

  it("keeps the first sink error, never rejects and keeps delivering", async () => {
    const delivered: string[] = [];
    const emitter = new OrderedEmitter({
      emit(event) {
        if (event.type === "text_delta" && event.text !== "ok") throw new Error(`bad ${event.text}`);
        delivered.push("ok");
      },
    });
    await expect(emitter.emit(delta("x"))).resolves.toBeUndefined();
    await emitter.emit(delta("y"));
    await emitter.emit(delta("ok"));
    expect(emitter.error?.message).toBe("bad x");
    expect(delivered).toEqual(["ok"]);
  });
});
