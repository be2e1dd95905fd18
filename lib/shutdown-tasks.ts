/**
 * What the server process finishes before it exits on SIGTERM or SIGINT (scripts/serve.mjs runs
 * them once its listener is closed and the requests in flight are answered): flushing what
 * only memory holds, such as the OpenTelemetry spans still queued for export. The list lives on
 * globalThis: Next.js may load this module once per bundle, and the server runs one list.
 */
import { describeError, log } from "@/lib/log";

type Task = { name: string; run: () => Promise<void> };
const SLOT = Symbol.for("insika.shutdownTasks");
const holder = globalThis as typeof globalThis & { [SLOT]?: Task[] };

/** Adds a task to run at shutdown. */
export function onShutdown(name: string, run: () => Promise<void>): void {
  (holder[SLOT] ??= []).push({ name, run });
}

/** Runs every task once, side by side; a failure is logged by the task's name and does not stop the others. */
export async function runShutdownTasks(): Promise<void> {
  const tasks = (holder[SLOT] ?? []).splice(0);
  await Promise.all(
    tasks.map((task) =>
      task.run().catch((error: unknown) => log.error(`shutdown: ${task.name} failed`, describeError(error))),
    ),
  );
}
