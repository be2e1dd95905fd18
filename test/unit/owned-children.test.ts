import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SUPPORT = path.resolve("test/support/owned-children.ts");
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");

/** True while a process with this pid runs (a zombie, dead but not yet reaped by init, does not). */
function alive(pid: number): boolean {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/**
 * Runs a parent process that starts a child which would run for a minute, prints the child's
 * pid, then ends as `ending` says; returns the child's pid once the parent is gone.
 */
function parentThatEnds(ending: string, own: boolean): number {
  const script = `
    import { spawn } from "node:child_process";
    import { ownChild } from ${JSON.stringify(SUPPORT)};
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    ${own ? "ownChild(child);" : ""}
    console.log(child.pid);
    ${ending}
  `;
  const parent = spawnSync(process.execPath, [TSX, "--eval", script], { encoding: "utf8", timeout: 30_000 });
  const pid = Number(parent.stdout.trim().split("\n")[0]);
  expect(Number.isInteger(pid) && pid > 0, `${parent.stdout}${parent.stderr}`).toBe(true);
  return pid;
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i += 1) await new Promise((r) => setTimeout(r, 20));
  return !alive(pid);
}

describe("ownChild", () => {
  it("kills an owned child still running when its parent ends normally", async () => {
    expect(await gone(parentThatEnds("process.exit(0);", true))).toBe(true);
  });

  it("kills it when the parent dies of an uncaught error", async () => {
    expect(await gone(parentThatEnds('setImmediate(() => { throw new Error("boom"); });', true))).toBe(true);
  });

  it("leaves a child it was not given alone (what it guards against)", async () => {
    const pid = parentThatEnds("process.exit(0);", false);
    try {
      expect(alive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("forgets a child that already exited, and kills nothing else", async () => {
    const { ownChild, killOwnedChildren } = await import("../support/owned-children");
    const done = ownChild(spawn(process.execPath, ["-e", ""], { stdio: "ignore" }));
    await new Promise((r) => done.once("exit", r));
    expect(() => killOwnedChildren()).not.toThrow();
  });
});
