/**
 * Servers a test or bench starts as child processes (Insika's server, the example MCP server) die
 * with it: when this process exits — a finished run, a failed one, an uncaught error, an output
 * pipe closed under it — every owned child still running is killed, so an interrupted run leaves
 * no server behind holding a port and a core. (A process killed with SIGKILL runs no handler at
 * all; the bench's own helper processes cover that case by exiting when their stdin ends.)
 */
import type { ChildProcess } from "node:child_process";

const running = new Set<ChildProcess>();
let killedAtExit = false;

/** Registers `child` to be killed (SIGKILL) if it is still running when this process exits. */
export function ownChild<C extends ChildProcess>(child: C): C {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (!killedAtExit) {
    killedAtExit = true;
    process.once("exit", killOwnedChildren);
  }
  return child;
}

/** Kills every owned child still running; what this process's exit does. */
export function killOwnedChildren(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}
