// Starts a throwaway Insika from the build (`npm run build` first) for the example: a free
// loopback port, a temporary data directory, and an environment that permits exactly one
// backend. Everything secret travels through the child's environment, never through a file.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { serverNodeFlags } from "../../scripts/server-node-flags.mjs";

const READY_TIMEOUT_MS = 60_000; // generous: the server is ready in well under a second on an idle machine

/**
 * root: the repository root (holds .next/ and node_modules/).
 * env: the Insika settings (secrets, egress, CALLBACKS_BACKEND_URL) added to a clean environment.
 * Resolves to { url, token, stop() }; rejects with the server's output when it does not come up.
 */
export async function startInsika({ root, env }) {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("no build found: run `npm run build` first (or pass --url and --token for a running Insika)");
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "insika-data-tool-example-"));
  // The token goes in the environment, so Insika keeps only its hash and writes no token file.
  const token = `example_${crypto.randomBytes(24).toString("hex")}`;
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(root, "scripts/serve.mjs")], {
    cwd: root,
    env: {
      ...withoutInsikaSettings(process.env),
      NEXT_TELEMETRY_DISABLED: "1",
      INSIKA_LOG_LEVEL: "warn",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      INSIKA_DATA_DIR: dataDir,
      INSIKA_API_TOKEN: token,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Insika exited during start (code ${child.exitCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.ok) return { url, token, dataDir, stop, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  await stop();
  throw new Error(`Insika did not answer /v1/health within ${READY_TIMEOUT_MS / 1000} s:\n${output}`);
}

/** The caller's environment minus INSIKA_* settings, so the example never inherits another setup. */
function withoutInsikaSettings(source) {
  return Object.fromEntries(Object.entries(source).filter(([name]) => !name.startsWith("INSIKA_")));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
