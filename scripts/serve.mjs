#!/usr/bin/env node
// The server process: the built app on Node's http server through Next.js's request handler,
// as `next start` serves it, except that each request is first offered to the route the app
// registered under Symbol.for("insika.nodeRoute") (lib/api/node-turn-route.ts: the JSON turn,
// answered without Next's router; docs/decisions.md). PORT and HOST say where to listen.
// SIGTERM and SIGINT stop it as they stop `next start`: no new connections, the requests in
// flight answered, then exit 143 / 130.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.NODE_ENV ??= "production";
const { default: next } = await import("next");

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE_ROUTE = Symbol.for("insika.nodeRoute");

const app = next({ dev: false, dir, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

const server = http.createServer((req, res) => {
  if (globalThis[NODE_ROUTE]?.(req, res)) return;
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

let stopping = false;
for (const [signal, code] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(() => app.close().finally(() => process.exit(code)));
  });
}
