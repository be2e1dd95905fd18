/**
 * Test-only doubles for egress: postures that reach loopback, resolvers that never touch
 * real DNS, a recording connector, and a harness that closes what a test opened. The rule
 * they enforce: tests send traffic to loopback only. The recording connector opens a socket
 * only to a vetted 127.0.0.0/8 or ::1 address over plain TCP, and refuses (without any
 * socket) everything else, so a test can prove "nothing reached the target".
 */
import net from "node:net";
import type { ResolvedAddress, Resolver } from "@/lib/egress/check-destination";
import type { EgressConnector, EgressDispatcher, EgressDispatcherOptions } from "@/lib/egress/egress-dispatcher";
import { createEgressDispatcher } from "@/lib/egress/egress-dispatcher";
import type { GuardedRequestInput, GuardedResult } from "@/lib/egress/guarded-request";
import { guardedRequest } from "@/lib/egress/guarded-request";
import { parsePosture, type EgressPosture } from "@/lib/egress/posture";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server";

/** Plain http and private addresses allowed (the dev posture); one object so its dispatcher is reused. */
export const DEV_POSTURE: EgressPosture = parsePosture({
  INSIKA_EGRESS_ALLOW_HTTP: "1",
  INSIKA_EGRESS_ALLOW_PRIVATE: "1",
});

/** An allowlist posture naming exactly these hosts (e.g. `127.0.0.1:<port>`), plain http allowed. */
export function allowlistPosture(...hosts: string[]): EgressPosture {
  return parsePosture({ INSIKA_EGRESS_HOSTS: hosts.join(","), INSIKA_EGRESS_ALLOW_HTTP: "1" });
}

/** Resolves every name in `names` to 127.0.0.1 and refuses anything else (no real DNS in tests). */
export function loopbackResolver(...names: string[]): Resolver {
  return async (hostname) => {
    if (names.includes(hostname.toLowerCase())) return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error(`test resolver: unknown name ${hostname}`), { code: "ENOTFOUND" });
  };
}

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
export function recordingConnector(options: { loopback: boolean }): {
  connector: EgressConnector;
  attempts: ConnectAttempt[];
} {
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

/** Servers and dispatchers a test file opens; `cleanup()` (run it in afterEach) closes them all. */
export interface Harness {
  server(handler: Parameters<typeof startLoopbackServer>[0], host?: string): Promise<LoopbackServer>;
  dispatcher(posture: EgressPosture, options?: EgressDispatcherOptions): EgressDispatcher;
  /** guardedRequest with GET and a 5 s timeout unless given; a fresh dispatcher unless given. */
  send(
    input: Partial<GuardedRequestInput> & { url: string },
    posture: EgressPosture,
    d?: EgressDispatcher,
  ): Promise<GuardedResult>;
  cleanup(): Promise<void>;
}

/** Creates a {@link Harness}. */
export function harness(): Harness {
  const servers: LoopbackServer[] = [];
  const dispatchers: EgressDispatcher[] = [];
  const h: Harness = {
    async server(handler, host) {
      const s = await startLoopbackServer(handler, host);
      servers.push(s);
      return s;
    },
    dispatcher(posture, options) {
      const d = createEgressDispatcher(posture, options);
      dispatchers.push(d);
      return d;
    },
    send(input, posture, d) {
      return guardedRequest(
        { method: "GET", timeoutMs: 5_000, ...input },
        { posture, dispatcher: d ?? h.dispatcher(posture) },
      );
    },
    async cleanup() {
      await Promise.all(dispatchers.splice(0).map((d) => d.close()));
      await Promise.all(servers.splice(0).map((s) => s.close()));
    },
  };
  return h;
}
