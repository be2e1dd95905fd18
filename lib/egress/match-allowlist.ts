/**
 * INSIKA_EGRESS_HOSTS matching. Entries match the host *as written in the URL*:
 * names against names, IPs/CIDRs against IP literals. Matching never looks at
 * DNS answers, so under an allowlist a name that is not listed is refused before
 * any lookup (a model-chosen name cannot even leak data through a DNS query).
 */
import type { ParsedEgressUrl } from "./parse-url";
import type { AllowlistEntry, EgressPosture } from "./posture";

/** How a destination relates to the allowlist. */
export interface AllowlistMatch {
  /** Some entry names this host (with no port, or this exact port). */
  listed: boolean;
  /** Some matching entry names this exact port (it then opens a non-default port). */
  portListed: boolean;
}

function hostMatches(entry: AllowlistEntry, host: ParsedEgressUrl["host"]): boolean {
  if (host.kind === "ip") {
    if (entry.kind !== "ip") return false;
    const [net, bits] = entry.range;
    return net.kind() === host.ip.kind() && host.ip.match(net, bits);
  }
  if (entry.kind === "name") return entry.name === host.name;
  if (entry.kind === "suffix") return host.name.endsWith(`.${entry.suffix}`);
  return false;
}

/**
 * Matches a parsed destination against the posture's allowlist. An entry without
 * a port admits the host on any port the port rule allows; an entry with a port
 * admits it on that port only. With no allowlist, nothing is `listed`.
 */
export function matchAllowlist(posture: EgressPosture, dest: Pick<ParsedEgressUrl, "host" | "port">): AllowlistMatch {
  let listed = false;
  let portListed = false;
  for (const entry of posture.hosts) {
    if (!hostMatches(entry, dest.host)) continue;
    if (entry.port === null) listed = true;
    else if (entry.port === dest.port) {
      listed = true;
      portListed = true;
    }
  }
  return { listed, portListed };
}
