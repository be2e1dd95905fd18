/**
 * What the egress guard refuses about a URL under every posture: its form
 * (parseUrlForm), a cloud metadata host name, or an IP literal in an
 * always-blocked range. No setting can open these, so a write path can refuse
 * them when the URL is saved instead of storing a tool (or an agent) whose
 * every call would be blocked. The guard itself applies the same functions at
 * call time (checkDestination), so the two cannot disagree.
 */
import { classifyAddress, describeAddressClass } from "./classify-address";
import type { EgressBlock } from "./egress-block";
import { NO_WIDENING, egressBlock } from "./egress-block";
import type { ParsedEgressUrl } from "./parse-url";
import { parseEgressUrl } from "./parse-url";
import type { EgressPosture } from "./posture";

// Widest posture: only the refusals that hold under every posture remain.
const ANY_POSTURE: EgressPosture = Object.freeze({ allowHttp: true, allowPrivate: true, hosts: Object.freeze([]) });

/** The refusal for an IP literal no posture can reach (unspecified, link-local, metadata...), else null. */
export function alwaysBlockedLiteral(p: ParsedEgressUrl): EgressBlock | null {
  if (p.host.kind !== "ip") return null;
  // By its text (the bare literal): classifyAddress memoizes string inputs.
  const c = classifyAddress(p.hostname);
  return c.class === "always-blocked" ? egressBlock("always-blocked", describeAddressClass(c), NO_WIDENING) : null;
}

/**
 * The guard's refusal of `url` that no posture can lift, or null when some
 * posture could allow it (whether this process's does is decided per call).
 * Synchronous and DNS-free. Never throws.
 */
export function checkUrlForm(url: string): EgressBlock | null {
  const p = parseEgressUrl(url, ANY_POSTURE);
  if ("verdict" in p) return p;
  return alwaysBlockedLiteral(p);
}
