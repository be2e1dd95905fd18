/**
 * The send loop shared by guardedRequest and guardedFetch: check the destination,
 * pin its vetted addresses, send with undici `request()`, and follow redirects
 * by hand so that every hop is checked again (undici would follow them blindly).
 */
import type { Dispatcher } from "undici";
import { request } from "undici";
import type { AbortSignalLike } from "./call-deadline";
import type { Resolver } from "./check-destination";
import { decideDestination } from "./check-destination";
import type { EgressBlock, EgressRule } from "./egress-block";
import type { EgressDispatcher } from "./egress-dispatcher";
import type { EgressPosture } from "./posture";

/** One request the guard looked at: allowed (and sent) or blocked (and not sent). */
export interface EgressHop {
  url: string;
  method: string;
  /** `unresolved`: the name did not resolve, so nothing was sent. */
  verdict: "allowed" | "blocked" | "unresolved";
  /** The egress rule: why it was allowed (`public`, `allowlisted`, `allow-private`) or refused. */
  rule: EgressRule | "public" | "allowlisted" | "allow-private" | "dns";
  /** The vetted address the request was pinned to. */
  address?: string;
  status?: number;
  hint?: string;
}

/** A request for sendWithRedirects; `signal` bounds everything, redirects included. */
export interface SendWithRedirectsInput {
  method: string;
  url: string | URL;
  headers: Record<string, string>;
  body?: string | Buffer | null;
  /** Header names (any case) that hold secrets: dropped on a cross-origin hop. */
  secretHeaderNames?: readonly string[];
  /** An AbortSignal, or guardedRequest's CallDeadline (see call-deadline.ts). */
  signal: AbortSignalLike;
  /** `manual` returns a redirect response as is (fetch's redirect: "manual"). */
  redirect: "follow" | "manual";
  maxRedirects: number;
}

/** The guard configuration sendWithRedirects checks and sends with. */
export interface SendWithRedirectsDeps {
  posture: EgressPosture;
  resolver?: Resolver;
  dispatcher: EgressDispatcher;
}

/** One hop as the transport sends it: the vetted URL, and the request the loop built. */
export interface HopInit {
  dispatcher: Dispatcher;
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | null;
  signal: AbortSignalLike;
  /** Called once the response's status line is in (a buffering transport answers only after the body). */
  onResponseStart(statusCode: number): void;
}

/** What the loop needs of a hop's response: its status, its headers, and a way to let go of a redirect's body. */
export interface HopResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** Frees the connection of a redirect the loop follows (its body is not used). */
  discard(): Promise<void>;
}

/** Sends one hop and answers once its response has started (or, for a buffering transport, been read). */
export type HopTransport<R extends HopResponse> = (url: URL, init: HopInit) => Promise<R>;

/** undici's response, body streamed (what guardedFetch hands on). */
export type StreamedResponse = Dispatcher.ResponseData & HopResponse;

/** The default transport: undici `request()`, answering at the response headers with the body as a stream. */
export async function streamedHop(url: URL, init: HopInit): Promise<StreamedResponse> {
  const response = await request(url, {
    dispatcher: init.dispatcher,
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    // undici takes any signal with addEventListener/removeEventListener and
    // aborted/reason, though its type names only AbortSignal (call-deadline.ts).
    signal: init.signal as AbortSignal,
  });
  // Drain a little so the socket can go back to the pool; a huge redirect body just closes it.
  const discard = () => response.body.dump({ limit: REDIRECT_DRAIN_BYTES }).catch(() => {});
  return Object.assign(response, { discard });
}

/** What the loop ended with; transport errors and aborts are thrown instead. */
export type SendWithRedirectsOutcome<R extends HopResponse = StreamedResponse> =
  | { ok: true; response: R; url: URL }
  | { ok: false; kind: "blocked"; block: EgressBlock }
  | { ok: false; kind: "network" | "too-many-redirects" | "invalid-request"; error: string };

// The method token grammar (RFC 9110); CONNECT/TRACE would tunnel or echo, fetch forbids them too.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
// Hop-by-hop or framing headers: undici owns them; a caller-set Host would also change TLS SNI.
const DROPPED_HEADERS = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "content-length",
  "expect",
]);
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];
/** The statuses the loop follows (with a Location). */
export const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** A followed redirect's body is read this far at most, so its socket can be reused; past it, closed. */
export const REDIRECT_DRAIN_BYTES = 64 * 1024;

function cleanHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (!DROPPED_HEADERS.has(lower)) out[lower] = headers[name] as string;
  }
  out["accept-encoding"] ??= "gzip, deflate, br";
  return out;
}

// Authorization, Cookie, Proxy-Authorization and the caller's secret headers, for a cross-origin hop.
function withoutSecrets(
  headers: Record<string, string>,
  secretHeaderNames: readonly string[] | undefined,
): Record<string, string> {
  const secret = new Set([
    "authorization",
    "cookie",
    "proxy-authorization",
    ...(secretHeaderNames ?? []).map((h) => h.toLowerCase()),
  ]);
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !secret.has(name)));
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function hopUrl(raw: string | URL, base: URL | undefined): string {
  try {
    return new URL(raw, base).href;
  } catch {
    return String(raw);
  }
}

/**
 * Sends `input` through the guard. Each hop: checkDestination (a refusal ends the
 * loop as `blocked`, nothing sent), pin the vetted addresses, send, and on
 * 301/302/303/307/308 with a Location follow it (at most `maxRedirects` times):
 * 303, and 301/302 after POST, become a bodiless GET as browsers do; on a
 * cross-origin hop Authorization, Cookie, Proxy-Authorization and the secret
 * headers are dropped for the rest of the chain. Appends to `hops` as it goes.
 * Throws undici/abort errors; the callers map them to their own error shapes.
 * `send` sends each hop (default: streamedHop; guardedRequest reads bodies whole with bufferedHop).
 */
export async function sendWithRedirects<R extends HopResponse = StreamedResponse>(
  input: SendWithRedirectsInput,
  deps: SendWithRedirectsDeps,
  hops: EgressHop[],
  send: HopTransport<R> = streamedHop as unknown as HopTransport<R>,
): Promise<SendWithRedirectsOutcome<R>> {
  let method = input.method.toUpperCase();
  if (!TOKEN.test(method) || FORBIDDEN_METHODS.has(method)) {
    return { ok: false, kind: "invalid-request", error: `method ${JSON.stringify(input.method)} is not allowed` };
  }
  let headers = cleanHeaders(input.headers);
  let body = input.body ?? null;
  let next: string | URL = input.url;
  let base: URL | undefined;

  for (let redirects = 0; ; redirects += 1) {
    // checkDestination's decision; a Promise only when a DNS lookup was needed.
    let decision = decideDestination(next, deps.posture, deps.resolver, { base, signal: input.signal });
    if (decision instanceof Promise) decision = await decision;
    input.signal.throwIfAborted();
    if (decision.verdict === "blocked") {
      hops.push({ url: hopUrl(next, base), method, verdict: "blocked", rule: decision.rule, hint: decision.hint });
      return { ok: false, kind: "blocked", block: decision };
    }
    if (decision.verdict === "unresolved") {
      hops.push({ url: hopUrl(next, base), method, verdict: "unresolved", rule: "dns" });
      return { ok: false, kind: "network", error: decision.reason };
    }
    if (base !== undefined && decision.url.origin !== base.origin) {
      // Once dropped, never restored: a later hop back to the first origin is still downstream of a stranger.
      headers = withoutSecrets(headers, input.secretHeaderNames);
    }

    // Recorded before sending so a hop that fails in transit still shows in the trace.
    const hop: EgressHop = {
      url: decision.url.href,
      method,
      verdict: "allowed",
      rule: decision.rule,
      address: decision.address,
    };
    hops.push(hop);
    const release = deps.dispatcher.pin(decision.hostname, decision.port, decision.addresses);
    let response: R;
    try {
      response = await send(decision.url, {
        dispatcher: deps.dispatcher.agent,
        method,
        headers,
        body,
        signal: input.signal,
        onResponseStart: (statusCode) => {
          // Known even when reading the body then fails; and the socket exists, so the pin can go.
          hop.status = statusCode;
          release();
        },
      });
    } finally {
      // Once headers are in, the socket exists; later requests re-pin before any new connect.
      release();
    }
    hop.status = response.statusCode;

    const location = firstHeader(response.headers.location);
    if (input.redirect === "manual" || !REDIRECTS.has(response.statusCode) || location === undefined) {
      return { ok: true, response, url: decision.url };
    }
    await response.discard();
    if (redirects >= input.maxRedirects) {
      return { ok: false, kind: "too-many-redirects", error: `too many redirects (more than ${input.maxRedirects})` };
    }
    const status = response.statusCode;
    if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
      method = "GET";
      body = null;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !BODY_HEADERS.includes(name)));
    }
    next = location;
    base = decision.url;
  }
}
