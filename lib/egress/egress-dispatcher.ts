/**
 * The undici Agent behind every guarded request. It never resolves a name: the
 * guard vets a destination's addresses, *pins* them here for the duration of the
 * request, and the Agent's `connect.lookup` hands exactly those addresses to the
 * socket layer. A DNS rebinding answer therefore never reaches a socket.
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
 * Opens the socket for a pinned destination. The default uses undici's connector
 * with the pinned lookup; tests inject one that records attempts and refuses
 * anything but loopback.
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
   * Pins `hostname` (as undici passes it: bare IP or the URL's host name) to vetted
   * addresses; call the returned release function once the response headers are in.
   * A later pin's addresses replace an earlier one's (all were vetted under this
   * posture). Released pins stay usable until evicted (at most 1024 idle pins).
   */
  pin(hostname: string, addresses: readonly ResolvedAddress[]): () => void;
  /** Sockets opened so far (keep-alive reuse shows as requests > connects). */
  readonly stats: { readonly connects: number };
  close(): Promise<void>;
}

/** How many released pins are kept for undici's own reconnects. */
const MAX_IDLE_PINS = 1024;

function noPin(hostname: string): NodeJS.ErrnoException {
  // Fail closed: a connection nobody vetted is a bug, never a reason to ask DNS.
  const err: NodeJS.ErrnoException = new Error(`egress: no vetted address pinned for ${hostname}`);
  err.code = "EEGRESSNOPIN";
  return err;
}

/**
 * Creates the dispatcher for `posture`. Its connector refuses any host without a
 * pin and re-checks pinned addresses against the always-blocked table (cheap
 * defense in depth against a caller pinning something it did not vet).
 */
export function createEgressDispatcher(
  posture: EgressPosture,
  options: EgressDispatcherOptions = {},
): EgressDispatcher {
  const pins = new Map<string, { addresses: readonly ResolvedAddress[]; refs: number }>();
  const stats = { connects: 0 };
  // A released pin is kept (bounded, oldest evicted first): undici sometimes reconnects
  // an origin after an aborted request, with no request of ours in flight. Failing that
  // connect wedges its pool (close() never resolves); the kept pin was vetted under this
  // same posture, so honoring it is safe.
  const evictIdle = () => {
    if (pins.size <= MAX_IDLE_PINS) return;
    for (const [host, entry] of pins) {
      if (pins.size <= MAX_IDLE_PINS) break;
      if (entry.refs <= 0) pins.delete(host);
    }
  };

  const pinnedLookup: LookupFunction = (hostname: string, opts: LookupOptions, callback) => {
    const pin = pins.get(hostname);
    if (!pin) return callback(noPin(hostname), []);
    if (opts.all) {
      const all: LookupAddress[] = pin.addresses.map((a) => ({ address: a.address, family: a.family }));
      return callback(null, all);
    }
    const wanted = opts.family === 4 || opts.family === 6 ? opts.family : 0;
    const pick = pin.addresses.find((a) => wanted === 0 || a.family === wanted) ?? pin.addresses[0];
    if (!pick) return callback(noPin(hostname), []);
    callback(null, pick.address, pick.family);
  };

  const base = buildConnector({
    lookup: pinnedLookup,
    // Happy eyeballs across the vetted addresses only, as Node would across DNS answers.
    autoSelectFamily: true,
    timeout: options.connectTimeoutMs ?? 10_000,
  });
  const dial: EgressConnector = options.connector ?? ((opts, cb) => base(opts, cb));

  const connect: buildConnector.connector = (opts, callback) => {
    const pin = pins.get(opts.hostname);
    if (!pin || pin.addresses.length === 0) return callback(noPin(opts.hostname), null);
    const bad = pin.addresses.find((a) => classifyAddress(a.address).class === "always-blocked");
    if (bad) return callback(new Error(`egress: refusing to connect to ${bad.address}`), null);
    stats.connects += 1;
    dial({ ...opts, vetted: pin.addresses }, callback);
  };

  const agent = new Agent({
    connect,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
  });

  return {
    posture,
    agent,
    stats,
    pin(hostname, addresses) {
      const entry = pins.get(hostname);
      pins.delete(hostname); // re-insert: Map order doubles as least-recently-pinned order
      pins.set(hostname, { addresses, refs: (entry?.refs ?? 0) + 1 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const current = pins.get(hostname);
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
