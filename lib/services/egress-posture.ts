/**
 * This process's egress posture, parsed once from the environment. A bad value
 * fails the call loudly (and `insika doctor` names it) rather than widening egress.
 */
import { parsePosture, type EgressPosture } from "@/lib/egress";
import { rawEnvSnapshot } from "@/lib/env";

let cached: EgressPosture | undefined;

export function getPosture(): EgressPosture {
  cached ??= parsePosture(rawEnvSnapshot());
  return cached;
}
