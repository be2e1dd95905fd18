/**
 * The one guarded HTTP client (DESIGN §3.11, D4): every outbound request a tool
 * or an MCP import makes goes through here. It returns a result instead of
 * throwing, because a tool call never throws into the turn loop (DESIGN §3.3):
 * a refusal becomes `{"error":"destination blocked: ..."}` for the model.
 */
import type { Resolver } from "./check-destination";
import { UnsupportedEncodingError, decodeBody, discardBody, readCapped } from "./decode-body";
import type { EgressRule } from "./egress-block";
import type { EgressDispatcher } from "./egress-dispatcher";
import { egressDispatcherFor } from "./egress-dispatcher";
import type { EgressPosture } from "./posture";
import type { EgressHop } from "./send-guarded";
import { sendGuarded } from "./send-guarded";

/** Default cap on the decoded response body (DESIGN D2). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Redirects followed before giving up (DESIGN D4). */
export const MAX_REDIRECTS = 5;

/** One outbound request, as a data tool or MCP call builds it. */
export interface GuardedRequestInput {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bounds the whole call: DNS, every redirect hop and the body read. */
  timeoutMs: number;
  /** Cap on decoded body bytes (default 1 MiB); beyond it the result is `truncated`. */
  maxBodyBytes?: number;
  /** Headers holding secrets; with Authorization/Cookie they are dropped on a cross-origin redirect. */
  secretHeaderNames?: readonly string[];
  signal?: AbortSignal;
}

/** What guardedRequest sends with: the posture, and optional resolver/dispatcher overrides. */
export interface GuardedRequestDeps {
  posture: EgressPosture;
  /** Default: the system resolver (all answers). */
  resolver?: Resolver;
  /** Default: the shared dispatcher for `posture`. Must have been created for the same posture. */
  dispatcher?: EgressDispatcher;
}

/**
 * Why a call failed. `blocked`: refused by the guard, nothing sent. There is no
 * `too-large`: an over-cap body is returned truncated (`truncated: true`), so the
 * caller still sees the status and can decide.
 */
export type GuardedFailureKind =
  | "blocked"
  | "timeout"
  | "aborted"
  | "network"
  | "too-many-redirects"
  | "invalid-request"
  | "decode";

/** A response was received (any HTTP status: a 404 is a success at this layer). */
export interface GuardedSuccess {
  ok: true;
  status: number;
  /** Response headers, lower-cased; repeated headers joined with `, `. As received (body is decoded). */
  headers: Record<string, string>;
  /** Decoded body (gzip/deflate/br undone), at most maxBodyBytes long. */
  body: Buffer;
  /** The decoded body exceeded maxBodyBytes; reading stopped there and `body` is its prefix. */
  truncated: boolean;
  finalUrl: string;
  hops: EgressHop[];
  durationMs: number;
}

/** Nothing usable came back; `hops` still shows what the guard allowed or refused. */
export interface GuardedFailure {
  ok: false;
  kind: GuardedFailureKind;
  /** For `blocked`, exactly `destination blocked: <reason>`. */
  error: string;
  /** For `blocked`: the rule and the setting that would widen it (for the trace). */
  egress?: { verdict: "blocked"; rule: EgressRule; hint: string };
  /** The last HTTP status received, if any (e.g. the redirect that was one too many). */
  status?: number;
  hops: EgressHop[];
  durationMs: number;
}

/** guardedRequest's result; it never throws for guard or network failures. */
export type GuardedResult = GuardedSuccess | GuardedFailure;

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function errorKind(err: unknown): { kind: GuardedFailureKind; error: string } {
  if (err instanceof UnsupportedEncodingError) return { kind: "decode", error: err.message };
  const e = err as { code?: string; message?: string } | undefined;
  const code = e?.code ?? "";
  const message = e?.message ?? String(err);
  // zlib reports Z_DATA_ERROR and friends; its brotli decoder ERR__ERROR_FORMAT_* and the like.
  if (/^(Z_|ERR__ERROR_|ERR_BROTLI)/.test(code)) {
    return { kind: "decode", error: `could not decode the response body: ${message}` };
  }
  if (code === "UND_ERR_INVALID_ARG") return { kind: "invalid-request", error: message };
  if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return { kind: "timeout", error: `network timeout: ${message}` };
  }
  return { kind: "network", error: `network error: ${code ? `${code} ` : ""}${message}` };
}

/**
 * One signal for the whole call: fires at the deadline or when the caller aborts.
 * Unlike AbortSignal.timeout its timer is cleared when the call ends, so a busy
 * process does not carry one live timer per finished request until it expires.
 */
function deadlineSignal(ms: number, parent?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`request timed out after ${ms} ms`, "TimeoutError"));
  }, ms);
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}

/**
 * Sends one HTTP request through the egress guard and reads the whole response.
 * Never throws for guard, network, timeout or decoding failures: those come back
 * as `{ ok: false, kind, error }` (a refusal: kind `blocked`, error
 * `destination blocked: <reason>`, `egress: {rule, hint}`, and nothing sent).
 * Connects only to addresses vetted for that very request, follows at most 5
 * redirects re-checking each, and applies `timeoutMs` to the whole call.
 */
export async function guardedRequest(input: GuardedRequestInput, deps: GuardedRequestDeps): Promise<GuardedResult> {
  const started = performance.now();
  const hops: EgressHop[] = [];
  const elapsed = () => Math.round(performance.now() - started);
  const dispatcher = deps.dispatcher ?? egressDispatcherFor(deps.posture);
  if (dispatcher.posture !== deps.posture) {
    throw new TypeError("guardedRequest: the dispatcher was created for another posture");
  }
  const deadline = deadlineSignal(input.timeoutMs, input.signal);
  const signal = deadline.signal;
  const fail = (kind: GuardedFailureKind, error: string, extra: Partial<GuardedFailure> = {}): GuardedFailure => {
    const last = [...hops].reverse().find((h) => h.status !== undefined);
    return { ok: false, kind, error, status: last?.status, ...extra, hops, durationMs: elapsed() };
  };
  const failFromError = (err: unknown): GuardedFailure => {
    // Which signal fired decides the kind: our deadline, or the caller giving up.
    if (deadline.timedOut()) return fail("timeout", `request timed out after ${input.timeoutMs} ms`);
    if (input.signal?.aborted) return fail("aborted", "request aborted");
    const { kind, error } = errorKind(err);
    return fail(kind, error);
  };

  try {
    const sent = await sendGuarded(
      {
        method: input.method,
        url: input.url,
        headers: input.headers ?? {},
        body: input.body ?? null,
        secretHeaderNames: input.secretHeaderNames,
        signal,
        redirect: "follow",
        maxRedirects: MAX_REDIRECTS,
      },
      { posture: deps.posture, resolver: deps.resolver, dispatcher },
      hops,
    );
    if (!sent.ok) {
      if (sent.kind === "blocked") {
        const { rule, hint, message } = sent.block;
        return fail("blocked", message, { egress: { verdict: "blocked", rule, hint } });
      }
      return fail(sent.kind, sent.error);
    }

    const { response } = sent;
    const headers = flattenHeaders(response.headers);
    let body: Buffer = Buffer.alloc(0);
    let truncated = false;
    const method = hops[hops.length - 1]?.method ?? input.method.toUpperCase();
    if (method === "HEAD" || response.statusCode === 204 || response.statusCode === 304) {
      await response.body.dump();
    } else {
      let decoded;
      try {
        decoded = decodeBody(response.body, headers["content-encoding"]);
      } catch (err) {
        discardBody(response.body);
        throw err;
      }
      ({ body, truncated } = await readCapped(decoded, input.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES));
    }
    return {
      ok: true,
      status: response.statusCode,
      headers,
      body,
      truncated,
      finalUrl: sent.url.href,
      hops,
      durationMs: elapsed(),
    };
  } catch (err) {
    return failFromError(err);
  } finally {
    deadline.dispose();
  }
}
