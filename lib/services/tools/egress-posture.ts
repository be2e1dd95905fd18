/**
 * This process's egress posture, parsed once from the environment. A bad value
 * fails the call loudly (and `insika doctor` names it) rather than widening egress.
 */
import { parsePosture, parseProviderPosture, type EgressPosture, type FetchLike } from "@/lib/egress";
import { getEnv, rawEnvSnapshot } from "@/lib/env";
import { createProviderFetch, PROVIDER_ANSWER_MAX_BYTES } from "@/lib/providers/provider-fetch";

let cached: EgressPosture | undefined;
let providerFetches: ProviderFetches | undefined;

/** The two fetches of the model providers: one for streamed steps, one for steps read whole. */
export interface ProviderFetches {
  /** The answer's body streams to the SDK (a streamed step, or any step of a caller that streams). */
  streamed: FetchLike;
  /** The answer is read whole, capped, before the SDK sees it (a step nobody streams: one doGenerate). */
  whole: FetchLike;
}

/** The data tools' posture (INSIKA_EGRESS_*). */
export function getPosture(): EgressPosture {
  cached ??= parsePosture(rawEnvSnapshot());
  return cached;
}

/**
 * The fetches of every model provider call: the egress guard under the provider posture
 * (public https, plus INSIKA_PROVIDER_HOSTS). One pair per process, on one posture, so they share
 * its sockets.
 */
export function getProviderFetches(): ProviderFetches {
  if (!providerFetches) {
    const posture = parseProviderPosture(getEnv().INSIKA_PROVIDER_HOSTS);
    providerFetches = {
      streamed: createProviderFetch(posture),
      whole: createProviderFetch(posture, { bufferUpTo: PROVIDER_ANSWER_MAX_BYTES }),
    };
  }
  return providerFetches;
}
