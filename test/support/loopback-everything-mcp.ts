/**
 * The official example MCP server (@modelcontextprotocol/server-everything)
 * in Streamable HTTP mode, on a loopback port, as a child process the test
 * owns: start, stop (as a crash would), start again on the same port.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ownChild } from "./owned-children";
import { freePort } from "./server";

export interface LoopbackEverythingMcp {
  port: number;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  start(): Promise<void>;
  /** Kills the process (SIGKILL: every session is lost, as in a crash). */
  stop(): Promise<void>;
  restart(): Promise<void>;
  output(): string;
}

const ENTRY = path.join(process.cwd(), "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

export async function startLoopbackEverythingMcp(): Promise<LoopbackEverythingMcp> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let log = "";

  const start = async () => {
    const proc = ownChild(
      spawn(process.execPath, [ENTRY, "streamableHttp"], {
        env: { ...process.env, PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    child = proc;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server-everything did not start:\n${log}`)), 20_000);
      const onData = (d: Buffer) => {
        log += d;
        if (log.includes(`listening on port ${port}`)) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on("data", onData);
      proc.stderr?.on("data", onData);
      proc.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`server-everything exited (${code}):\n${log}`));
      });
    });
  };

  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill("SIGKILL");
    await exited;
    log = "";
  };

  await start();
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    output: () => log,
  };
}
