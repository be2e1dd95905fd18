/**
 * This process's egress posture, parsed once from the environment. A bad value
 * fails the call loudly (and `insika doctor` names it) rather than widening egress.
 */
import { parsePosture, parseProviderPosture, type EgressPosture } from "@/lib/egress";
import { getEnv, rawEnvSnapshot } from "@/lib/env";
import { createProviderFetches, type ProviderFetches } from "@/lib/providers/provider-fetch";

let cached: EgressPosture | undefined;
let providerFetches: ProviderFetches | undefined;

/** The data tools' posture (INSIKA_EGRESS_*). */
export function getPosture(): EgressPosture {
  cached ??= parsePosture(rawEnvSnapshot());
  return cached;
}

/**
 * The fetches of every model provider call: the egress guard under the provider posture
 * (public https, plus INSIKA_PROVIDER_HOSTS), streamed and read whole. One pair per process, so
 * their sockets are pooled.
 */
export function getProviderFetches(): ProviderFetches {
  providerFetches ??= createProviderFetches(parseProviderPosture(getEnv().INSIKA_PROVIDER_HOSTS));
  return providerFetches;
}
