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

  it("hands an ordered sink each event at once, and resolves each emit only after the ones before it", async () => {
    const handed: string[] = [];
    const release: Array<() => void> = [];
    const emitter = new OrderedEmitter({
      ordered: true,
      emit(event) {
        if (event.type === "text_delta") handed.push(event.text);
        return new Promise<void>((resolve) => release.push(resolve));
      },
    });
    const resolved: string[] = [];
    const first = emitter.emit(delta("first")).then(() => resolved.push("first"));
    const second = emitter.emit(delta("second")).then(() => resolved.push("second"));
    // Both reached the sink before either was delivered (a non-ordered sink would see one).
    expect(handed).toEqual(["first", "second"]);
    release[1]?.();
    await sleep(5);
    expect(resolved).toEqual([]); // the second waits for the first
    release[0]?.();
    await Promise.all([first, second]);
    expect(resolved).toEqual(["first", "second"]);
    await emitter.flush();
  });

  it("keeps an ordered sink's first error too, and never rejects", async () => {
    const emitter = new OrderedEmitter({
      ordered: true,
      emit: (event) => (event.type === "text_delta" && event.text === "bad" ? Promise.reject(new Error("disk full")) : Promise.resolve()),
    });
    await Promise.all([emitter.emit(delta("ok")), emitter.emit(delta("bad")), emitter.emit(delta("later"))]);
    await expect(emitter.flush()).resolves.toBeUndefined();
    expect(emitter.error?.message).toBe("disk full");
  });

  it("handOff and handedOff resolve once the sink has the events: at once for an ordered sink, after delivery otherwise", async () => {
    for (const ordered of [true, false]) {
      let release = () => {};
      const handed: string[] = [];
      const emitter = new OrderedEmitter({
        ordered,
        emit(event) {
          if (event.type === "text_delta") handed.push(event.text);
          return new Promise<void>((resolve) => (release = resolve));
        },
      });
      let resolved = false;
      let allHanded = false;
      const handOff = emitter.handOff(delta("x")).then(() => (resolved = true));
      void emitter.handedOff().then(() => (allHanded = true));
      await sleep(5);
      expect(handed).toEqual(["x"]);
      expect(resolved).toBe(ordered); // an ordered sink persists on its own; the other must deliver first
      expect(allHanded).toBe(ordered);
      release();
      await handOff;
      await emitter.flush();
    }
  });
});
