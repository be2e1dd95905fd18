/**
 * The `fetch` every network provider (openai-compatible, openai, anthropic) is given: the
 * egress guard's guardedFetch under the provider posture (INSIKA_PROVIDER_HOSTS), so a
 * model endpoint gets the same address checks and DNS pinning as a data tool. Two rules
 * are the provider's own: a redirect is never followed (the API key would go wherever the
 * endpoint points), and a refusal is a ProviderError naming the rule and the variable.
 */
import type { EgressDispatcher, EgressPosture, FetchLike, Resolver } from "@/lib/egress";
import { EgressBlockedError, guardedFetch } from "@/lib/egress";
import { capStreamedAnswer } from "./cap-streamed-answer";
import { ProviderError } from "./provider-error";

/** The most a provider's answer read whole (`bufferUpTo`) may hold: far above any model's answer. */
export const PROVIDER_ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The most a streamed answer may hold (decoded): a 128k-token answer in SSE events of a few
 * hundred bytes each stays below it; an endless stream stops here instead of filling memory.
 */
export const PROVIDER_STREAM_MAX_BYTES = 64 * 1024 * 1024;

/** Knobs for tests (a stub resolver, a dispatcher with a recording connector), and how answers are read. */
export interface ProviderFetchOptions {
  resolver?: Resolver;
  dispatcher?: EgressDispatcher;
  /** Read each answer whole before the SDK sees it, up to this many bytes (guardedFetch `bufferUpTo`). */
  bufferUpTo?: number;
  /** A streamed answer's body fails (ProviderError) past this many decoded bytes (see capStreamedAnswer). */
  streamUpTo?: number;
}

/** The origin of a redirect target, for the error (never its path or query, which may carry tokens). */
function originOf(location: string | null, base: string): string {
  if (location === null) return "an unnamed location";
  try {
    return new URL(location, base).origin;
  } catch {
    return "an invalid URL";
  }
}

/**
 * Returns a fetch for provider calls under `posture` (see parseProviderPosture). A blocked
 * destination throws ProviderError(`provider endpoint blocked: destination blocked: <reason>
 * (rule <rule>; <hint>)`); a 3xx answer throws ProviderError naming the status and the target's
 * origin, without following it; with `streamUpTo`, a body past that many decoded bytes errors
 * with a ProviderError; everything else behaves as guardedFetch.
 */
export function createProviderFetch(posture: EgressPosture, options: ProviderFetchOptions = {}): FetchLike {
  const { streamUpTo, ...guardOptions } = options;
  // A streamed step's body is parsed as SSE whatever its content type: its line ends are made LF
  // for that parser (see lib/egress/sse-line-ends.ts).
  const send = guardedFetch(
    posture,
    streamUpTo === undefined ? guardOptions : { ...guardOptions, everyBodyIsEventStream: true },
  );
  return async (input, init = {}) => {
    let response: Response;
    try {
      response = await send(input, { ...init, redirect: "manual" });
    } catch (error) {
      if (error instanceof EgressBlockedError) {
        throw new ProviderError(
          `provider endpoint blocked: ${error.message} (rule ${error.rule}; ${error.hint})`,
          undefined,
          "provider_blocked",
        );
      }
      throw error;
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      const target = originOf(response.headers.get("location"), response.url);
      throw new ProviderError(
        `provider endpoint answered ${response.status} (a redirect to ${target}); redirects are not followed: set model.base_url to the final URL`,
        response.status,
      );
    }
    return streamUpTo === undefined ? response : capStreamedAnswer(response, streamUpTo);
  };
}

/** The two provider fetches createModel takes: streamed steps, and steps whose answer is read whole. */
export interface ProviderFetches {
  /** The answer's body streams to the SDK, at most PROVIDER_STREAM_MAX_BYTES of it. */
  fetch: FetchLike;
  /** The answer is read whole, at most PROVIDER_ANSWER_MAX_BYTES, before the SDK sees it (one doGenerate). */
  wholeAnswerFetch: FetchLike;
}

/** Both provider fetches on one posture (so on one dispatcher: they share its sockets). */
export function createProviderFetches(posture: EgressPosture, options: ProviderFetchOptions = {}): ProviderFetches {
  return {
    fetch: createProviderFetch(posture, { ...options, streamUpTo: options.streamUpTo ?? PROVIDER_STREAM_MAX_BYTES }),
    wholeAnswerFetch: createProviderFetch(posture, {
      ...options,
      streamUpTo: undefined,
      bufferUpTo: PROVIDER_ANSWER_MAX_BYTES,
    }),
  };
}
