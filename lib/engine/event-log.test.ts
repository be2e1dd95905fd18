import { describe, expect, it } from "vitest";
import { EventLog } from "./event-log";
import type { EngineEvent } from "./ports";

const delta = (text: string): EngineEvent => ({ type: "text_delta", text });

describe("EventLog", () => {
  it("hands each event to the sink at once, in call order, and resolves record() only after everything before it is durable", async () => {
    const handed: string[] = [];
    const release: Array<() => void> = [];
    const log = new EventLog({
      emit(event) {
        if (event.type === "text_delta") handed.push(event.text);
        return new Promise<void>((resolve) => release.push(resolve));
      },
    });
    log.post(delta("first"));
    let recorded = false;
    const second = log.record(delta("second")).then(() => (recorded = true));
    // Both reached the sink before either was durable: the sink can write them together.
    expect(handed).toEqual(["first", "second"]);
    release[1]?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(recorded).toBe(false); // "first" is not durable yet
    release[0]?.();
    await second;
    expect(recorded).toBe(true);
  });

  it("keeps the first sink error (thrown or rejected), never rejects, and keeps handing events over", async () => {
    const handed: string[] = [];
    const log = new EventLog({
      emit(event) {
        if (event.type !== "text_delta") return;
        handed.push(event.text);
        if (event.text === "x") throw new Error("bad x");
        if (event.text === "y") return Promise.reject(new Error("bad y"));
      },
    });
    log.post(delta("x"));
    await expect(log.record(delta("y"))).resolves.toBeUndefined();
    await log.record(delta("ok"));
    expect(log.error?.message).toBe("bad x");
    expect(handed).toEqual(["x", "y", "ok"]);
  });

  it("wraps a non-Error thrown by the sink", async () => {
    const log = new EventLog({
      emit() {
        throw "disk gone";
      },
    });
    await log.record(delta("a"));
    expect(log.error).toBeInstanceOf(Error);
    expect(log.error?.message).toBe("disk gone");
  });
});
