/**
 * Checkpoints a database's WAL on a worker thread. SQLite's automatic checkpoint runs
 * inside whichever commit crosses its threshold, on the event loop: it copies pages back
 * into the database file and waits for two fsyncs, about a fifth of the group commit's time
 * in the turn bench. Here a second connection, on its own thread, runs a PASSIVE checkpoint
 * (it never blocks readers or writers) every INTERVAL_MS instead.
 *
 * The writing connection keeps an automatic checkpoint with a raised threshold as a safety
 * net: should the worker stall or die, the WAL still cannot grow past ~40 MB. If the worker
 * cannot start or fails, the connection goes back to SQLite's default threshold, and the
 * failure is logged.
 *
 * Under a steady stream of commits the worker's checkpoint is never complete (frames arrive
 * while it copies), and SQLite starts the WAL over only after a complete one, so it is the
 * safety net, run by a commit on the event loop, that starts it over every ~10,000 pages. What
 * that commit has left to copy is what arrived since the worker's last pass: hence a short
 * interval (decisions.md, "The WAL checkpointer passes every 20 ms").
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { describeError, log } from "@/lib/log";

/** Between two passes of the worker. Idle, a pass reads the WAL index and finds nothing to copy. */
const INTERVAL_MS = 20;
/** The writing connection's automatic threshold while the worker checkpoints (pages of 4 KiB). */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's default threshold, restored when the worker is gone. */
const DEFAULT_PAGES = 1_000;

// A CommonJS script, evaluated as the worker's body (no separate file for the bundler to miss).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    // SQLITE_BUSY and the like: the next tick tries again.
    if (error && error.code !== "SQLITE_BUSY" && error.code !== "SQLITE_LOCKED") throw error;
  }
}, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Stops the worker (after its current checkpoint) and restores the default threshold. */
  stop(): Promise<void>;
}

/** Starts checkpointing `file` (the database `client` writes) on a worker thread. */
export function startWalCheckpointer(client: Database.Database, file: string): WalCheckpointer {
  // Resolved from the app's root, where the server (and `next start`) runs.
  const driver = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs: INTERVAL_MS } });
  worker.unref(); // never what keeps a process alive
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
