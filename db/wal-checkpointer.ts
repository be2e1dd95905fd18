/**
 * Checkpoints a database's WAL on a worker thread. SQLite's automatic checkpoint runs
 * inside whichever commit crosses its threshold, on the event loop: it copies pages back
 * into the database file and waits for two fsyncs, about a fifth of the group commit's time
 * in the turn bench. Here a second connection, on its own thread, runs PASSIVE checkpoints
 * (they never block readers or writers) instead.
 *
 * The writing connection keeps an automatic checkpoint with a raised threshold as a safety
 * net: should the worker stall or die, the WAL still cannot grow past ~40 MB. If the worker
 * cannot start or fails, the connection goes back to SQLite's default threshold, and the
 * failure is logged.
 *
 * When the worker passes: once PASS_FRAMES frames were written since its last pass, else
 * MAX_INTERVAL_MS after it if anything was written at all. Under a steady stream of commits
 * its checkpoint is never complete (frames arrive while it copies) and SQLite starts the WAL
 * over only after a complete one, so the safety net, run by a commit on the event loop, starts
 * it over every ~10,000 pages, copying what the worker has not: passing by the frames written
 * keeps that little under a heavy load, passing by time keeps the fsyncs few under a light one
 * (decisions.md, "The WAL checkpointer passes by the frames written"). The frames are read
 * from the WAL index's header (the `-shm` file, SQLite's documented wal-index format); where
 * it cannot be read, passes go by time alone.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { describeError, log } from "@/lib/log";

/** How often the worker looks at the WAL index's header (one 36-byte read). */
const POLL_MS = 20;
/** Frames written since the last pass that make the worker pass at once (~4 MB). */
const PASS_FRAMES = 1_000;
/** The longest a written frame waits for a pass. */
const MAX_INTERVAL_MS = 200;
/** The writing connection's automatic threshold while the worker checkpoints (pages of 4 KiB). */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's default threshold, restored when the worker is gone. */
const DEFAULT_PAGES = 1_000;

// A CommonJS script, evaluated as the worker's body (no separate file for the bundler to miss).
// The wal-index header, in the machine's byte order: iVersion (u32) at byte 0, mxFrame (u32,
// the frames in the WAL) at byte 16, the WAL's salt (u32, new each time the WAL starts over) at
// byte 32. A version other than 3007000 is not read.
const WORKER_SOURCE = `
const fs = require("node:fs");
const os = require("node:os");
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
db.pragma("schema_version"); // a first read: from here on the WAL index exists

const header = Buffer.alloc(36);
const le = os.endianness() === "LE";
let index;
try {
  index = fs.openSync(workerData.file + "-shm", "r");
} catch {
  index = undefined;
}
/** The WAL's frames and salt, or undefined when the index cannot be read. */
function walState() {
  if (index === undefined || fs.readSync(index, header, 0, 36, 0) < 36) return undefined;
  const u32 = (at) => (le ? header.readUInt32LE(at) : header.readUInt32BE(at));
  return u32(0) === 3007000 ? { frames: u32(16), salt: u32(32) } : undefined;
}

let copied = 0; // frames of the WAL the last pass left checkpointed
let salt; // which WAL that was
let lastPass = Date.now();
function tick() {
  const wal = walState();
  const now = Date.now();
  const due = now - lastPass >= workerData.maxIntervalMs;
  let reason;
  if (wal === undefined) {
    if (due) reason = "interval";
  } else {
    // A WAL started over since the last pass holds only new frames.
    const fresh = wal.salt === salt ? Math.max(0, wal.frames - copied) : wal.frames;
    if (fresh >= workerData.passFrames) reason = "frames";
    else if (fresh > 0 && due) reason = "interval";
  }
  if (!reason) return;
  lastPass = now;
  try {
    const [result] = db.pragma("wal_checkpoint(PASSIVE)");
    copied = result.checkpointed;
    salt = wal && wal.salt;
    if (workerData.report) parentPort.postMessage({ pass: reason, frames: result.log, copied: result.checkpointed });
  } catch (error) {
    // SQLITE_BUSY and the like: a later tick tries again.
    if (error && error.code !== "SQLITE_BUSY" && error.code !== "SQLITE_LOCKED") throw error;
  }
}
const timer = setInterval(tick, workerData.pollMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  if (index !== undefined) fs.closeSync(index);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Stops the worker (after its current checkpoint) and restores the default threshold. */
  stop(): Promise<void>;
}

/** One pass of the worker: why it passed, the frames in the WAL and those checkpointed. */
export interface CheckpointPass {
  pass: "frames" | "interval";
  frames: number;
  copied: number;
}

/**
 * Starts checkpointing `file` (the database `client` writes) on a worker thread. `onPass`
 * hears of every pass (tests).
 */
export function startWalCheckpointer(
  client: Database.Database,
  file: string,
  options: { onPass?: (pass: CheckpointPass) => void } = {},
): WalCheckpointer {
  // Resolved from the app's root, where the server (and `next start`) runs.
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const workerData = {
    driver,
    file,
    pollMs: POLL_MS,
    passFrames: PASS_FRAMES,
    maxIntervalMs: MAX_INTERVAL_MS,
    report: options.onPass !== undefined,
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
  worker.unref(); // never what keeps a process alive
  if (options.onPass) worker.on("message", options.onPass);
  let running = true;
  const fallBack = () => {
    if (!running) return;
    running = false;
    if (client.open) client.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
  };
  worker.on("error", (error) => {
    log.warn("WAL checkpointer stopped; SQLite checkpoints on commit again", { file, ...describeError(error) });
    fallBack();
  });
  worker.on("exit", fallBack);
  client.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  return {
    async stop() {
      if (!running) return;
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      // Held until it exits: awaiting an unref'd worker would not keep the process alive.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
