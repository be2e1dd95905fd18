/**
 * Starts the real built server (scripts/serve.mjs, as production runs it) on a free loopback port with its
 * own data directory, as integration and browser tests need it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import { ownChild } from "./owned-children";
import { assertNoProcessErrors } from "./server-log-check";
import { tempDir } from "./temp-dir";
import { createTestDatabase, testPostgresUrl } from "./test-database";
import { serverNodeFlags } from "../../scripts/server-node-flags.mjs";

export interface TestServer {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  env: Record<string, string>;
  /** Authenticated JSON request to the server. */
  api(
    method: string,
    pathname: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops (if running) and starts again on the same port and data. */
  restart(): Promise<void>;
  output(): string;
  /** The server process's id while it runs. */
  pid(): number | undefined;
}

/**
 * Every server this process started, for the log check after a test file
 * (test/support/server-log-hook.ts) and after the browser run (e2e/global-setup.ts).
 * On globalThis: a setup file and a test file must see the same list.
 */
const STARTED = Symbol.for("insika.test.startedServers");
function startedList(): TestServer[] {
  const holder = globalThis as { [STARTED]?: TestServer[] };
  return (holder[STARTED] ??= []);
}

/**
 * Fails (throws) when a server started by this process logged an uncaught
 * exception or an unhandled rejection; forgets the servers it checked.
 */
export function assertServersLoggedNoProcessErrors(): void {
  const servers = startedList().splice(0);
  const problems: string[] = [];
  for (const s of servers) {
    try {
      assertNoProcessErrors(s.output(), `the server at ${s.url}`);
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  if (problems.length > 0) throw new Error(problems.join("\n\n"));
}

// Tests, Playwright and the bench all run from the repository root.
const ROOT = process.cwd();
/** How long a test server may take to exit after a stop signal before it is killed. */
const STOP_GRACE_MS = 30_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs the insika CLI synchronously with the given environment. */
export function runCli(args: string[], env: Record<string, string>) {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "cli/insika.ts", ...args],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: "utf8",
    },
  );
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The PostgreSQL database each data directory's servers run on (the PostgreSQL run of the suite). */
const databaseOfDataDir = new Map<string, string>();

export async function startServer(
  options: {
    env?: Record<string, string>;
    port?: number;
    prepare?: boolean;
    /** Node flags for the server process (e.g. `--cpu-prof`, which NODE_OPTIONS may not carry). */
    nodeArgs?: string[];
    /**
     * How the server is started: scripts/serve.mjs, as production runs it (the default), or a
     * bare `next start` (every route through Next's router: the http-turn bench's comparison).
     */
    entry?: "serve" | "next-start";
  } = {},
): Promise<TestServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.env?.INSIKA_DATA_DIR ?? tempDir();
  const token = options.env?.INSIKA_API_TOKEN ?? `test_${crypto.randomBytes(16).toString("hex")}`;
  // The PostgreSQL run of the suite: a database of its own, unless the test passes one (a fleet
  // shares it) or shares another server's data directory (and so, as on SQLite, its database).
  const database =
    options.env?.INSIKA_DATABASE_URL ??
    databaseOfDataDir.get(dataDir) ??
    (testPostgresUrl() ? await createTestDatabase() : undefined);
  if (database) databaseOfDataDir.set(dataDir, database);
  const env: Record<string, string> = {
    NEXT_TELEMETRY_DISABLED: "1",
    INSIKA_LOG_LEVEL: "warn",
    ...(database ? { INSIKA_DATABASE_URL: database } : {}),
    ...options.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    INSIKA_DATA_DIR: dataDir,
    INSIKA_API_TOKEN: token,
  };
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let log = "";

  const start = async () => {
    if (options.prepare !== false) {
      const prepared = runCli(["prepare"], env);
      if (prepared.code !== 0) throw new Error(`insika prepare failed:\n${prepared.stdout}\n${prepared.stderr}`);
    }
    child = ownChild(
      spawn(
        process.execPath,
        [
          // As scripts/start.mjs runs it in production.
          ...serverNodeFlags(),
          ...(options.nodeArgs ?? []),
          ...(options.entry === "next-start"
            ? [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"]
            : [path.join(ROOT, "scripts/serve.mjs")]),
        ],
        {
          cwd: ROOT,
          env: { ...process.env, ...env },
          stdio: ["ignore", "pipe", "pipe"],
        },
      ),
    );
    child.stdout?.on("data", (d) => (log += d));
    child.stderr?.on("data", (d) => (log += d));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
      try {
        const res = await fetch(`${url}/v1/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not become healthy:\n${log}`);
  };

  // A graceful stop that hangs is a failure of its own, named with the server's log, not a
  // test timeout followed by every later test of the file refused a connection.
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    proc.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), STOP_GRACE_MS)));
    const outcome = await Promise.race([exited, late]);
    clearTimeout(timer);
    if (outcome !== "late") return;
    proc.kill("SIGKILL");
    await exited;
    throw new Error(`the server did not exit within ${STOP_GRACE_MS / 1000} s of ${signal} (killed); its log:\n${log}`);
  };

  await start();
  const server: TestServer = {
    url,
    port,
    token,
    dataDir,
    env,
    async api(method, pathname, body, headers = {}) {
      const send = () =>
        fetch(`${url}${pathname}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            ...headers,
          },
          body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        });
      let res: Response;
      try {
        res = await send();
      } catch (error) {
        // A pooled keep-alive connection the server closed while the test was blocked (a
        // synchronous CLI run outlasting the server's keep-alive timeout): an idempotent
        // request is sent again once, on a fresh connection.
        const code = ((error as Error).cause as { code?: string } | undefined)?.code;
        if (code !== "UND_ERR_SOCKET" || !["GET", "PUT", "DELETE"].includes(method)) throw error;
        res = await send();
      }
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    stop,
    async restart() {
      try {
        await stop();
      } finally {
        await start(); // the file's later tests still have a server
      }
    },
    output: () => log,
    pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
  };
  startedList().push(server);
  return server;
}
