/**
 * Test-only: a real HTTP server on a loopback address (ephemeral port) that records every
 * request it receives (method, target, headers, body) and counts TCP connections, so a test
 * can count side effects or prove that nothing arrived. The one loopback server every other
 * test server here is built on. Tests send traffic to loopback only.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  /** The request target as sent (path and query, still encoded). */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers one request; runs once its body has been read. */
export type LoopbackHandler = (req: ReceivedRequest, res: ServerResponse, server: LoopbackServer) => void;

export interface LoopbackServer {
  /** `http://<host>:<port>` */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Closes every connection (an open stream included) and the server. */
  close(): Promise<void>;
}

/** Answers JSON with a status (default 200). */
export function json(res: ServerResponse, value: unknown, status = 200): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** Starts a server on `host` (a loopback address; default 127.0.0.1) that runs `handler` for every request. */
export async function startLoopbackServer(
  handler: LoopbackHandler = (_req, res) => json(res, { ok: true }),
  host = "127.0.0.1",
): Promise<LoopbackServer> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(received);
      handler(received, res, loopback);
    });
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const loopback: LoopbackServer = {
    origin: `http://${host}:${port}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return loopback;
}
