import { describe, expect, it, vi } from "vitest";
import { CallDeadline } from "./call-deadline";

describe("CallDeadline", () => {
  it("aborts its signal once at the deadline with a TimeoutError", async () => {
    const d = new CallDeadline(20);
    const listener = vi.fn();
    d.signal.addEventListener("abort", listener);
    await new Promise((r) => setTimeout(r, 60));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(d.signal.aborted).toBe(true);
    expect(d.timedOut).toBe(true);
    expect(d.signal.reason).toMatchObject({ name: "TimeoutError", message: "request timed out after 20 ms" });
    d.dispose();
  });

  it("follows the parent's abort (already aborted, or later) with the parent's reason, not as a timeout", () => {
    const before = new AbortController();
    before.abort(new Error("gone"));
    const d1 = new CallDeadline(10_000, before.signal);
    expect(d1.signal.aborted && !d1.timedOut).toBe(true);
    expect(d1.signal.reason).toEqual(new Error("gone"));
    d1.dispose();

    const later = new AbortController();
    const d2 = new CallDeadline(10_000, later.signal);
    const listener = vi.fn();
    d2.signal.addEventListener("abort", listener);
    expect(d2.signal.aborted).toBe(false);
    later.abort(new Error("turn cancelled"));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(d2.signal.reason).toEqual(new Error("turn cancelled"));
    expect(d2.timedOut).toBe(false);
    d2.dispose();
  });

  it("dispose stops the timer and lets go of the parent", async () => {
    const parent = new AbortController();
    const d = new CallDeadline(20, parent.signal);
    d.dispose();
    await new Promise((r) => setTimeout(r, 50));
    parent.abort();
    expect(d.signal.aborted).toBe(false);
  });

  it("signals like an AbortSignal: each listener once, removable, none after the abort", async () => {
    const d = new CallDeadline(20);
    const kept = vi.fn();
    const removed = vi.fn();
    const throwing = vi.fn(() => {
      throw new Error("listener bug");
    });
    d.signal.addEventListener("abort", throwing);
    d.signal.addEventListener("abort", kept);
    d.signal.addEventListener("abort", kept); // a second add of the same listener is ignored
    d.signal.addEventListener("abort", removed);
    d.signal.removeEventListener("abort", removed);
    expect(() => d.signal.throwIfAborted()).not.toThrow();
    // A throwing listener does not stop the others; its error surfaces as uncaught, as with EventTarget.
    const uncaught = new Promise<unknown>((resolve) => process.once("uncaughtException", resolve));
    await new Promise((r) => setTimeout(r, 60));
    expect(await uncaught).toMatchObject({ message: "listener bug" });
    expect(throwing).toHaveBeenCalledTimes(1);
    expect(kept).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    expect(() => d.signal.throwIfAborted()).toThrow("request timed out after 20 ms");
    const late = vi.fn();
    d.signal.addEventListener("abort", late);
    d.dispose();
    expect(late).not.toHaveBeenCalled();
  });
});
