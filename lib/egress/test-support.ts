/**
 * Test doubles for the egress tests. The rule they enforce: tests send traffic
 * to loopback only. The recording connector opens a socket only to a vetted
 * 127.0.0.0/8 or ::1 address over plain TCP, and refuses (without any socket)
 * everything else, so a test can prove "nothing reached the target".
 * Not imported by library code.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import type { ResolvedAddress, Resolver } from "./check-destination";
import type { EgressConnector, EgressDispatcher, EgressDispatcherOptions } from "./egress-dispatcher";
import { createEgressDispatcher } from "./egress-dispatcher";
import type { GuardedRequestInput, GuardedResult } from "./guarded-request";
import { guardedRequest } from "./guarded-request";
import type { EgressPosture } from "./posture";

/** One connect attempt the connector was asked for. */
export interface ConnectAttempt {
  hostname: string;
  port: string;
  protocol: string;
  vetted: string[];
}

function isLoopbackLiteral(address: string): boolean {
  return /^127\.\d+\.\d+\.\d+$/.test(address) || address === "::1";
}

/**
 * A connector that records every attempt. With `loopback: true` it dials the first
 * vetted address when that is a loopback literal (plain TCP only); otherwise it
 * fails the attempt without creating a socket.
 */
export function recordingConnector(options: { loopback: boolean }): { connector: EgressConnector; attempts: ConnectAttempt[] } {
  const attempts: ConnectAttempt[] = [];
  const connector: EgressConnector = (opts, callback) => {
    const vetted = opts.vetted.map((a) => a.address);
    attempts.push({ hostname: opts.hostname, port: opts.port, protocol: opts.protocol, vetted });
    const target = vetted.find(isLoopbackLiteral);
    if (!options.loopback || target === undefined || opts.protocol !== "http:") {
      callback(new Error(`test connector: refused ${opts.protocol}//${vetted.join("|")}:${opts.port}`), null);
      return;
    }
    const socket = net.connect({ host: target, port: Number(opts.port) });
    socket.once("connect", () => callback(null, socket));
    socket.once("error", (err) => callback(err, null));
  };
  return { connector, attempts };
}

/** A resolver answering from a function of (hostname, nth call for that name, from 1); records calls. */
export function stubResolver(answer: (hostname: string, nth: number) => string[] | Error): {
  resolver: Resolver;
  calls: string[];
} {
  const calls: string[] = [];
  const resolver: Resolver = async (hostname) => {
    calls.push(hostname);
    const nth = calls.filter((c) => c === hostname).length;
    const result = answer(hostname, nth);
    if (result instanceof Error) throw result;
    return result.map((address): ResolvedAddress => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  return { resolver, calls };
}

/** An ENOTFOUND error like the system resolver's. */
export function notFound(hostname: string): Error {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
}

/** What a loopback test server saw. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A started loopback server. */
export interface TestServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: SeenRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Starts an HTTP server on 127.0.0.1 (ephemeral port) that records requests and connections. */
export async function startServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => void,
  host = "127.0.0.1",
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(seen);
      handler(req, res, seen);
    });
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://${host}:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Servers and dispatchers a test file opens; `cleanup()` (run it in afterEach) closes them all. */
export interface Harness {
  server(handler: Parameters<typeof startServer>[0], host?: string): Promise<TestServer>;
  dispatcher(posture: EgressPosture, options?: EgressDispatcherOptions): EgressDispatcher;
  /** guardedRequest with GET and a 5 s timeout unless given; a fresh dispatcher unless given. */
  send(input: Partial<GuardedRequestInput> & { url: string }, posture: EgressPosture, d?: EgressDispatcher): Promise<GuardedResult>;
  cleanup(): Promise<void>;
}

/** Creates a {@link Harness}. */
export function harness(): Harness {
  const servers: TestServer[] = [];
  const dispatchers: EgressDispatcher[] = [];
  const h: Harness = {
    async server(handler, host) {
      const s = await startServer(handler, host);
      servers.push(s);
      return s;
    },
    dispatcher(posture, options) {
      const d = createEgressDispatcher(posture, options);
      dispatchers.push(d);
      return d;
    },
    send(input, posture, d) {
      return guardedRequest({ method: "GET", timeoutMs: 5_000, ...input }, { posture, dispatcher: d ?? h.dispatcher(posture) });
    },
    async cleanup() {
      await Promise.all(dispatchers.splice(0).map((d) => d.close()));
      await Promise.all(servers.splice(0).map((s) => s.close()));
    },
  };
  return h;
}
