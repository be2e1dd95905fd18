import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { followSignal } from "./follow-signal";

describe("followSignal", () => {
  it("aborts the controller with the source's reason when the source aborts", () => {
    const source = new AbortController();
    const controller = new AbortController();
    followSignal(controller, source.signal);
    expect(controller.signal.aborted).toBe(false);
    const reason = new Error("turn cancelled");
    source.abort(reason);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it("aborts at once when the source already has", () => {
    const source = new AbortController();
    source.abort("gone");
    const controller = new AbortController();
    followSignal(controller, source.signal)();
    expect(controller.signal.reason).toBe("gone");
  });

  it("keeps the first reason: the owner's abort before the source's stays", () => {
    const source = new AbortController();
    const controller = new AbortController();
    followSignal(controller, source.signal);
    controller.abort("tool timeout");
    source.abort("turn cancelled");
    expect(controller.signal.reason).toBe("tool timeout");
  });

  it("once unfollowed, the source's abort no longer reaches the controller, and leaves no listener", () => {
    const source = new AbortController();
    const controllers = Array.from({ length: 50 }, () => new AbortController());
    for (const c of controllers) followSignal(c, source.signal)();
    expect(getEventListeners(source.signal, "abort")).toHaveLength(0);
    const late = new AbortController();
    const unfollow = followSignal(late, source.signal);
    expect(getEventListeners(source.signal, "abort")).toHaveLength(1);
    unfollow();
    unfollow(); // twice is harmless
    expect(getEventListeners(source.signal, "abort")).toHaveLength(0);
    source.abort("later");
    expect([...controllers, late].some((c) => c.signal.aborted)).toBe(false);
  });
});
