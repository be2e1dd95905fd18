/**
 * The one guarded HTTP client (DESIGN §3.11, D4): every outbound request a tool
 * or an MCP import makes goes through here. It returns a result instead of
 * throwing, because a tool call never throws into the turn loop (DESIGN §3.3):
 * a refusal becomes `{"error":"destination blocked: ..."}` for the model.
 */
import { CallDeadline } from "./call-deadline";
import type { Resolver } from "./check-destination";
import { bufferedHop } from "./buffered-hop";
import { UnsupportedEncodingError } from "./decode-body";
import type { EgressRule } from "./egress-block";
import type { EgressDispatcher } from "./egress-dispatcher";
import { egressDispatcherFor } from "./egress-dispatcher";
import type { EgressPosture } from "./posture";
import type { EgressHop } from "./send-with-redirects";
import { sendWithRedirects } from "./send-with-redirects";

/** Default cap on the decoded response body (DESIGN D2). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Redirects followed before giving up (DESIGN D4). */
export const MAX_REDIRECTS = 5;

/** One outbound request, as a data tool or MCP call builds it. */
export interface GuardedRequestInput {
  method: string;
  /** Text, or a URL already parsed (then it is not parsed again: the guard checks this object, undici sends it). */
  url: string | URL;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Bounds the whole call: DNS, every redirect hop and the body read. */
  timeoutMs: number;
  /** Cap on decoded body bytes (default 1 MiB); beyond it the result is `truncated`. */
  maxBodyBytes?: number;
  /** Headers holding secrets; with Authorization/Cookie they are dropped on a cross-origin redirect. */
  secretHeaderNames?: readonly string[];
  signal?: AbortSignal;
  /**
   * Sees each decoded body chunk (with the final response's headers); returning
   * true ends the read there, the body so far being the result. For streams
   * that stay open once the caller has its answer (MCP's SSE).
   */
  stopReading?: (chunk: Buffer, headers: Readonly<Record<string, string>>) => boolean;
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
  "blocked" | "timeout" | "aborted" | "network" | "too-many-redirects" | "invalid-request" | "decode";

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

// Hoisted out of guardedRequest: a closure per call costs an allocation (and, under
// tsx/esbuild keepNames, a defineProperty) on the hot path.
function failure(
  hops: EgressHop[],
  started: number,
  kind: GuardedFailureKind,
  error: string,
  extra: Partial<GuardedFailure> = {},
): GuardedFailure {
  let status: number | undefined;
  for (let i = hops.length - 1; i >= 0; i--) {
    const s = (hops[i] as EgressHop).status;
    if (s !== undefined) {
      status = s;
      break;
    }
  }
  return { ok: false, kind, error, status, ...extra, hops, durationMs: Math.round(performance.now() - started) };
}

function failureFromError(
  err: unknown,
  input: GuardedRequestInput,
  deadline: CallDeadline,
  hops: EgressHop[],
  started: number,
): GuardedFailure {
  // Which signal fired decides the kind: our deadline, or the caller giving up.
  if (deadline.timedOut) return failure(hops, started, "timeout", `request timed out after ${input.timeoutMs} ms`);
  if (input.signal?.aborted) return failure(hops, started, "aborted", "request aborted");
  const { kind, error } = errorKind(err);
  return failure(hops, started, kind, error);
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
  const dispatcher = deps.dispatcher ?? egressDispatcherFor(deps.posture);
  if (dispatcher.posture !== deps.posture) {
    throw new TypeError("guardedRequest: the dispatcher was created for another posture");
  }
  // One signal for the whole call: the deadline or the caller's abort, whichever first.
  const deadline = new CallDeadline(input.timeoutMs, input.signal);
  const signal = deadline.signal;

  try {
    const sent = await sendWithRedirects(
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
      // The body is read as it arrives, decoded and capped, with no stream per response.
      bufferedHop({ maxBytes: input.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, stopReading: input.stopReading }),
    );
    if (!sent.ok) {
      if (sent.kind === "blocked") {
        const { rule, hint, message } = sent.block;
        return failure(hops, started, "blocked", message, { egress: { verdict: "blocked", rule, hint } });
      }
      return failure(hops, started, sent.kind, sent.error);
    }

    // bufferedHop has read (and decoded, and capped) the body; HEAD, 204 and 304 come back empty.
    const { response } = sent;
    const { headers, body, truncated } = response;
    return {
      ok: true,
      status: response.statusCode,
      headers,
      body,
      truncated,
      finalUrl: sent.url.href,
      hops,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (err) {
    return failureFromError(err, input, deadline, hops, started);
  } finally {
    deadline.dispose();
  }
}
