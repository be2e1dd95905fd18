/**
 * Sends a built request through the egress guard (lib/egress guardedRequest,
 * the only HTTP client tools may use) and describes the exchange the way the
 * call record wants it. Secret values are not masked here: the record is
 * redacted by value as a whole, last (see finalizeRecord).
 */
import {
  guardedRequest,
  type EgressPosture,
  type GuardedRequestInput,
  type GuardedResult,
  type Resolver,
} from "@/lib/egress";
import type { BuiltRequest } from "./build-request";
import { maskHeaders, type RecordedEgress, type RecordedRedirect, type RecordedRequest } from "./call-record";
import { errorMessage } from "@/lib/errors";
import { formatSeconds } from "@/lib/engine/turn-limits";

/** The whole-call bounds: a deadline shared by every send of the call. */
export interface SendContext {
  posture: EgressPosture;
  resolver?: Resolver;
  /** `performance.now()` value after which the call has timed out. */
  deadline: number;
  /** The tool's timeout, in seconds, for the error message. */
  timeoutS: number;
  /** The caller's cancellation (the turn's, or the engine's tool_timeout). */
  signal?: AbortSignal;
}

/** One exchange: the guard's result plus its trace fields. */
export interface Exchange {
  result: GuardedResult;
  request: RecordedRequest;
  status: number | null;
  egress?: RecordedEgress;
  redirects?: RecordedRedirect[];
  /** For a failure: the model-facing message. */
  error?: string;
}

/**
 * Sends `request` with the call's remaining time as the guard's timeout (so
 * the tool timeout bounds DNS, every redirect and the body read, across every
 * send of the call) and the 1 MiB decoded-body cap. `secretHeaders` are handed
 * to the guard, which drops them on a cross-origin redirect, and are masked
 * as `[secret]` in the recorded headers. Never throws.
 */
export async function sendBuiltRequest(
  request: BuiltRequest,
  secretHeaders: readonly string[],
  ctx: SendContext,
  // MCP reads SSE streams that may stay open after the answer.
  read: { stopReading?: GuardedRequestInput["stopReading"] } = {},
): Promise<Exchange> {
  const remaining = Math.floor(ctx.deadline - performance.now());
  let result: GuardedResult;
  if (ctx.signal?.aborted) {
    result = { ok: false, kind: "aborted", error: "request aborted", hops: [], durationMs: 0 };
  } else if (remaining <= 0) {
    result = { ok: false, kind: "timeout", error: "request timed out", hops: [], durationMs: 0 };
  } else {
    try {
      result = await guardedRequest(
        {
          method: request.method,
          url: request.target,
          headers: request.headers,
          body: request.body,
          timeoutMs: remaining,
          secretHeaderNames: secretHeaders,
          signal: ctx.signal,
          stopReading: read.stopReading,
        },
        { posture: ctx.posture, resolver: ctx.resolver },
      );
    } catch (e) {
      // guardedRequest promises not to throw for network trouble; anything
      // else is a bug there, and still must not escape a tool call.
      result = { ok: false, kind: "network", error: `request failed: ${errorMessage(e)}`, hops: [], durationMs: 0 };
    }
  }
  return describeExchange(request, secretHeaders, result, ctx.timeoutS);
}

function describeExchange(
  request: BuiltRequest,
  secretHeaders: readonly string[],
  result: GuardedResult,
  timeoutS: number,
): Exchange {
  const hops = result.hops;
  const last = hops[hops.length - 1];
  const exchange: Exchange = {
    result,
    request: {
      method: last?.method ?? request.method,
      url: last?.url ?? request.url,
      headers: maskHeaders(request.headers, secretHeaders),
    },
    status: result.ok ? result.status : (result.status ?? null),
  };
  if (!result.ok && result.egress) {
    exchange.egress = { verdict: "blocked", rule: result.egress.rule, hint: result.egress.hint };
  } else if (last && last.verdict === "allowed") {
    exchange.egress = { verdict: "allowed", rule: last.rule, hint: null };
  }
  if (hops.length > 1) {
    exchange.redirects = hops.slice(0, -1).map((h) => ({ url: h.url, status: h.status ?? null }));
  }
  if (!result.ok) exchange.error = failureMessage(result, timeoutS);
  return exchange;
}

function failureMessage(result: Extract<GuardedResult, { ok: false }>, timeoutS: number): string {
  switch (result.kind) {
    case "timeout":
      // A connect/headers timeout inside undici says so; otherwise it was the
      // call's deadline (ours and the guard's are the same one): name the setting.
      if (result.error.startsWith("network timeout")) return result.error;
      return `request timed out after ${formatSeconds(timeoutS)} s (the tool's timeout)`;
    case "aborted":
      return "the call was cancelled before it completed";
    default:
      return result.error;
  }
}
