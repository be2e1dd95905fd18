import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "./log";
import { onShutdown, runShutdownTasks } from "./shutdown-tasks";

describe("shutdown tasks", () => {
  afterEach(() => vi.restoreAllMocks());

  it("runs every task side by side, once; a failing one is logged by name and the others still finish", async () => {
    const errors = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const order: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    onShutdown("slow flush", async () => {
      await slow;
      order.push("slow");
    });
    onShutdown("broken flush", async () => {
      throw new Error("collector gone");
    });
    onShutdown("quick flush", async () => {
      order.push("quick");
      release();
    });
    await runShutdownTasks();
    expect(order).toEqual(["quick", "slow"]);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[0]).toBe("shutdown: broken flush failed");
    expect(JSON.stringify(errors.mock.calls[0]?.[1])).toContain("collector gone");
    await runShutdownTasks();
    expect(order).toEqual(["quick", "slow"]);
  });
});
