/**
 * The undici Agent behind every guarded request. It never resolves a name: the
 * guard vets a destination's addresses, *pins* them here for the duration of the
 * request, and the socket layer's lookup hands exactly those addresses over. A DNS
 * rebinding answer therefore never reaches a socket.
 *
 * A pin belongs to a host *and port*, as the vetting did: an allowlist entry may
 * name one port of a host, so addresses vetted for `host:8443` never serve a
 * connection undici opens on its own to another port of that host.
 *
 * One dispatcher per posture: pooled keep-alive sockets are reused without
 * re-vetting the address they are connected to, which is only sound while the
 * rules that vetted it stay the same.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import type { ResolvedAddress } from "./check-destination";
import { classifyAddress } from "./classify-address";
import type { EgressPosture } from "./posture";

/** What a connector is asked for: undici's connect options plus the vetted addresses. */
export type EgressConnectOptions = buildConnector.Options & { vetted: readonly ResolvedAddress[] };

/**
 * Opens the socket for a pinned destination. The default is undici's connector with
 * a lookup that knows only the pin's addresses; tests inject one that records
 * attempts and refuses anything but loopback.
 */
export type EgressConnector = (options: EgressConnectOptions, callback: buildConnector.Callback) => void;

/** Knobs for createEgressDispatcher; tests inject `connector`. */
export interface EgressDispatcherOptions {
  connector?: EgressConnector;
  /** Idle keep-alive socket lifetime (undici default 4 s). */
  keepAliveTimeoutMs?: number;
  /** TCP+TLS connect timeout (default 10 s). */
  connectTimeoutMs?: number;
}

/** A posture-bound Agent plus its pin table. */
export interface EgressDispatcher {
  readonly posture: EgressPosture;
  readonly agent: Agent;
  /**
   * Pins `hostname` (as undici passes it: bare IP or the URL's host name) on `port`
   * to vetted addresses; call the returned release function once the response
   * headers are in. A later pin of the same host and port replaces an earlier one's
   * addresses (all were vetted under this posture). Released pins stay usable until
   * evicted (at most 1024 idle pins).
   */
  pin(hostname: string, port: number, addresses: readonly ResolvedAddress[]): () => void;
  /** Sockets opened so far (keep-alive reuse shows as requests > connects). */
  readonly stats: { readonly connects: number };
  close(): Promise<void>;
}

/** How many released pins are kept for undici's own reconnects. */
const MAX_IDLE_PINS = 1024;

function noPin(destination: string): NodeJS.ErrnoException {
  // Fail closed: a connection nobody vetted is a bug, never a reason to ask DNS.
  const err: NodeJS.ErrnoException = new Error(`egress: no vetted address pinned for ${destination}`);
  err.code = "EEGRESSNOPIN";
  return err;
}

/** The pin table's key: a host name and the port a connection to it uses. */
function pinKey(hostname: string, port: number): string {
  return `${hostname}:${port}`;
}

/** The port undici connects to: the URL's, else the scheme's default (as its connector does). */
function connectPort(options: buildConnector.Options): number {
  const port = Number(options.port);
  if (Number.isInteger(port) && port > 0) return port;
  return options.protocol === "https:" ? 443 : 80;
}

/** A lookup that can only answer with `addresses`, whatever name it is asked for. */
function lookupIn(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (hostname: string, opts: LookupOptions, callback) => {
    if (opts.all) {
      const all: LookupAddress[] = addresses.map((a) => ({ address: a.address, family: a.family }));
      return callback(null, all);
    }
    const wanted = opts.family === 4 || opts.family === 6 ? opts.family : 0;
    const pick = addresses.find((a) => wanted === 0 || a.family === wanted) ?? addresses[0];
    if (!pick) return callback(noPin(hostname), []);
    callback(null, pick.address, pick.family);
  };
}

function sameAddresses(a: readonly ResolvedAddress[], b: readonly ResolvedAddress[]): boolean {
  return a.length === b.length && a.every((x, i) => x.address === b[i]!.address && x.family === b[i]!.family);
}

interface Pin {
  addresses: readonly ResolvedAddress[];
  refs: number;
  /** undici's connector whose lookup answers with exactly these addresses (built on first connect). */
  connector?: buildConnector.connector;
}

/**
 * Creates the dispatcher for `posture`. Its connector refuses any host and port
 * without a pin and re-checks pinned addresses against the always-blocked table
 * (cheap defense in depth against a caller pinning something it did not vet).
 */
export function createEgressDispatcher(
  posture: EgressPosture,
  options: EgressDispatcherOptions = {},
): EgressDispatcher {
  const pins = new Map<string, Pin>();
  const stats = { connects: 0 };
  // A released pin is kept (bounded, oldest evicted first): undici sometimes reconnects
  // an origin after an aborted request, with no request of ours in flight. Failing that
  // connect wedges its pool (close() never resolves); the kept pin was vetted under this
  // same posture, so honoring it is safe.
  const evictIdle = () => {
    if (pins.size <= MAX_IDLE_PINS) return;
    for (const [key, entry] of pins) {
      if (pins.size <= MAX_IDLE_PINS) break;
      if (entry.refs <= 0) pins.delete(key);
    }
  };

  const connectTimeout = options.connectTimeoutMs ?? 10_000;
  const connect: buildConnector.connector = (opts, callback) => {
    const key = pinKey(opts.hostname, connectPort(opts));
    const pin = pins.get(key);
    if (!pin || pin.addresses.length === 0) return callback(noPin(key), null);
    const bad = pin.addresses.find((a) => classifyAddress(a.address).class === "always-blocked");
    if (bad) return callback(new Error(`egress: refusing to connect to ${bad.address}`), null);
    stats.connects += 1;
    if (options.connector) return options.connector({ ...opts, vetted: pin.addresses }, callback);
    // Each pin has its own connector, so a connection's lookup can only answer with the
    // addresses vetted for its own host and port. It lives as long as the pin's addresses
    // do, which keeps TLS session reuse for a host pinned again to the same addresses.
    // Happy eyeballs runs across the vetted addresses only, as Node would across DNS answers.
    pin.connector ??= buildConnector({
      lookup: lookupIn(pin.addresses),
      autoSelectFamily: true,
      timeout: connectTimeout,
    });
    pin.connector(opts, callback);
  };

  const agent = new Agent({
    connect,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
  });

  return {
    posture,
    agent,
    stats,
    pin(hostname, port, addresses) {
      const key = pinKey(hostname, port);
      const entry = pins.get(key);
      pins.delete(key); // re-insert: Map order doubles as least-recently-pinned order
      const connector = entry && sameAddresses(entry.addresses, addresses) ? entry.connector : undefined;
      pins.set(key, { addresses, refs: (entry?.refs ?? 0) + 1, connector });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const current = pins.get(key);
        if (current) current.refs -= 1;
        evictIdle();
      };
    },
    close: () => agent.close(),
  };
}

const defaults = new WeakMap<EgressPosture, EgressDispatcher>();

/**
 * The shared dispatcher for a posture (created on first use, kept for the posture
 * object's lifetime). Parse the posture once and reuse the object, or every call
 * gets a fresh pool and keep-alive is lost.
 */
export function egressDispatcherFor(posture: EgressPosture): EgressDispatcher {
  let d = defaults.get(posture);
  if (!d) {
    d = createEgressDispatcher(posture);
    defaults.set(posture, d);
  }
  return d;
}
