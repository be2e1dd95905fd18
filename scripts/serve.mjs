#!/usr/bin/env node
// The server process: the built app on Node's http server through Next.js's request handler,
// as `next start` serves it, with the hooks the app registers at start (lib/api/server-hooks.ts):
// each request is first offered to `route` (the JSON turn, answered without Next's router;
// docs/decisions.md), and on SIGTERM or SIGINT — no new connections, the requests in flight
// answered (those still going after `shutdownGraceMs` cut), Next closed — `shutdown` runs (at
// most SHUTDOWN_MS) before the exit, 143 or 130.
// It listens only once the app's start (instrumentation.ts) has succeeded; a start that failed
// ends the process with exit code 1 and the reason, where `next start` would listen and answer
// every request 500. PORT and HOST say where to listen.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.NODE_ENV ??= "production";
const { default: next } = await import("next");

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVER_HOOKS = Symbol.for("insika.serverHooks");
const SERVER_START = Symbol.for("insika.serverStart");
const SHUTDOWN_MS = 10_000;
const hooks = () => globalThis[SERVER_HOOKS];

const started = new Promise((resolve) => (globalThis[SERVER_START] = resolve));
const app = next({ dev: false, dir, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();
// A slow start (a database still migrating or out of reach) says so rather than sit silent.
const slow = setTimeout(() => console.warn("Insika is still starting after 30 s (opening the database)"), 30_000);
const start = await started;
clearTimeout(slow);
if (!start.ok) {
  console.error(`Insika did not start: ${start.error instanceof Error ? start.error.message : String(start.error)}`);
  process.exit(1);
}

const server = http.createServer((req, res) => {
  if (hooks()?.route(req, res)) return;
  handle(req, res).catch((error) => {
    // As `next start` answers a request its handler threw for.
    console.error(`Failed to handle request for ${req.url}`, error);
    if (!res.headersSent) res.writeHead(500);
    res.end("Internal Server Error");
  });
});
server.on("error", (error) => {
  console.error("Failed to start server", error);
  process.exit(1);
});
server.listen(port, hostname, () => console.log(`Ready on http://${hostname}:${port}`));

/** Waits for `work`, at most `ms`: "late" when it took longer. */
async function within(work, ms) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, ms, "late")));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  // close() ends the connections idle now; one whose answer is still being flushed, or whose
  // request ends later, becomes idle after it, so it is swept until the last one is gone (it
  // would otherwise hold the stop for as long as its client keeps an idle connection open).
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const closed = new Promise((resolve) => server.close(resolve));
  // A request still in flight after the grace (a long turn, a stream) is cut, so the stop takes
  // a known time; a turn cut so has its lease given up by the shutdown tasks (turn-leases.ts),
  // and is resumed from its last checkpoint by the next resume pass of any instance.
  // (The hooks are there: the server listens, and stops, only after a start that registered them.)
  const graceMs = hooks().shutdownGraceMs;
  if ((await within(closed, graceMs)) === "late") {
    const busy = await new Promise((resolve) => server.getConnections((_, count) => resolve(count)));
    if (busy > 0) {
      console.error(
        `${busy} connection(s) still busy ${graceMs / 1000} s after the stop signal (INSIKA_SHUTDOWN_GRACE); closing them`,
      );
      server.closeAllConnections();
    }
    await closed;
  }
  clearInterval(sweep);
  await app.close();
  if ((await within(hooks().shutdown(), SHUTDOWN_MS)) === "late") {
    console.error(`shutdown tasks still running after ${SHUTDOWN_MS} ms; exiting anyway`);
  }
  process.exit(code);
}

process.on("SIGTERM", () => void stop(143));
process.on("SIGINT", () => void stop(130));
