/**
 * The `fetch` every network provider (openai-compatible, openai, anthropic) is given: the
 * egress guard's guardedFetch under the provider posture (INSIKA_PROVIDER_HOSTS), so a
 * model endpoint gets the same address checks and DNS pinning as a data tool. Two rules
 * are the provider's own: a redirect is never followed (the API key would go wherever the
 * endpoint points), and a refusal is a ProviderError naming the rule and the variable.
 */
import type { EgressDispatcher, EgressPosture, FetchLike, Resolver } from "@/lib/egress";
import { EgressBlockedError, guardedFetch } from "@/lib/egress";
import { ProviderError } from "./provider-error";

/** The most a provider's answer read whole (`bufferUpTo`) may hold: far above any model's answer. */
export const PROVIDER_ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** Knobs for tests (a stub resolver, a dispatcher with a recording connector), and how answers are read. */
export interface ProviderFetchOptions {
  resolver?: Resolver;
  dispatcher?: EgressDispatcher;
  /** Read each answer whole before the SDK sees it, up to this many bytes (guardedFetch `bufferUpTo`). */
  bufferUpTo?: number;
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
 * origin, without following it; everything else behaves as guardedFetch.
 */
export function createProviderFetch(posture: EgressPosture, options: ProviderFetchOptions = {}): FetchLike {
  const send = guardedFetch(posture, options);
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
    return response;
  };
}

/** The two provider fetches createModel takes: streamed steps, and steps whose answer is read whole. */
export interface ProviderFetches {
  /** The answer's body streams to the SDK. */
  fetch: FetchLike;
  /** The answer is read whole, at most PROVIDER_ANSWER_MAX_BYTES, before the SDK sees it (one doGenerate). */
  wholeAnswerFetch: FetchLike;
}

/** Both provider fetches on one posture (so on one dispatcher: they share its sockets). */
export function createProviderFetches(posture: EgressPosture, options: ProviderFetchOptions = {}): ProviderFetches {
  return {
    fetch: createProviderFetch(posture, options),
    wholeAnswerFetch: createProviderFetch(posture, { ...options, bufferUpTo: PROVIDER_ANSWER_MAX_BYTES }),
  };
}
