/**
 * How the server process (scripts/serve.mjs) starts when the app cannot: it exits with code 1
 * and one line naming the reason, and never listens (under a bare `next start` the process
 * listened and answered every request 500, its log repeating the error).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverNodeFlags } from "../../scripts/server-node-flags.mjs";
import { ownChild } from "../support/owned-children";
import { freePort } from "../support/server";
import { tempDir } from "../support/temp-dir";

/** Starts the server with `env` and waits for its exit; whether it ever answered on its port. */
async function startAndWaitForExit(env: Record<string, string>) {
  const port = await freePort();
  const base = { ...process.env };
  // Each case names its own data; a database the suite's run would pass must not rescue it.
  delete base.INSIKA_DATABASE_URL;
  const child = ownChild(
    spawn(process.execPath, [...serverNodeFlags(), path.join(process.cwd(), "scripts/serve.mjs")], {
      cwd: process.cwd(),
      env: { ...base, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let answered = false;
  const poll = (async () => {
    while (child.exitCode === null) {
      try {
        await fetch(`http://127.0.0.1:${port}/v1/health`);
        answered = true;
      } catch {
        // not listening
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const code = await Promise.race([exited, new Promise<"running">((r) => setTimeout(r, 30_000, "running"))]);
  if (code === "running") child.kill("SIGKILL");
  await poll;
  return { code, output, answered };
}

describe("a server that cannot start", () => {
  it("exits with code 1 naming a bad setting, without listening", async () => {
    const { code, output, answered } = await startAndWaitForExit({
      INSIKA_DATA_DIR: tempDir(),
      INSIKA_API_TOKEN: "short",
    });
    expect(code).toBe(1);
    expect(answered).toBe(false);
    expect(output).toMatch(/Insika did not start: .*INSIKA_API_TOKEN must be at least 16 characters/);
    expect(output).not.toContain("Ready on");
  }, 40_000);

  it("exits with code 1 when its database cannot be opened", async () => {
    // The data directory is a file: no SQLite database can be made in it.
    const notADirectory = path.join(tempDir(), "file");
    fs.writeFileSync(notADirectory, "");
    const { code, output, answered } = await startAndWaitForExit({
      INSIKA_DATA_DIR: notADirectory,
      INSIKA_API_TOKEN: `test_${"x".repeat(32)}`,
    });
    expect(code).toBe(1);
    expect(answered).toBe(false);
    expect(output).toMatch(/Insika did not start: /);
    expect(output).not.toContain("Ready on");
  }, 40_000);
});
