/**
 * This process's egress posture, parsed once from the environment. A bad value
 * fails the call loudly (and `insika doctor` names it) rather than widening egress.
 */
import { parsePosture, parseProviderPosture, type EgressPosture, type FetchLike } from "@/lib/egress";
import { getEnv, rawEnvSnapshot } from "@/lib/env";
import { createProviderFetch } from "@/lib/providers/provider-fetch";

let cached: EgressPosture | undefined;
let providerFetch: FetchLike | undefined;

/** The data tools' posture (INSIKA_EGRESS_*). */
export function getPosture(): EgressPosture {
  cached ??= parsePosture(rawEnvSnapshot());
  return cached;
}

/**
 * The fetch of every model provider call: the egress guard under the provider posture
 * (public https, plus INSIKA_PROVIDER_HOSTS). One per process, so its sockets are pooled.
 */
export function getProviderFetch(): FetchLike {
  providerFetch ??= createProviderFetch(parseProviderPosture(getEnv().INSIKA_PROVIDER_HOSTS));
  return providerFetch;
}
